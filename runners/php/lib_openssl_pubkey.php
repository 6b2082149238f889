<?php

// php/openssl's public-key rows (added to lib_openssl.php's table): P-256 ECDH
// (openssl_pkey_derive), ECDSA P-256 with SHA-256 (openssl_sign/openssl_verify: DER; the r‖s
// form converted to and from DER here) and RSA-2048 PKCS#1 v1.5 with SHA-256. Keys cross PHP's
// API as PEM: the protocol's DER is armoured (base64) and a P-256 point is wrapped in its fixed
// SubjectPublicKeyInfo header; a scalar is loaded with openssl_pkey_new(['ec' => ['d' => …]]).
// Not offered, because PHP 8.2's openssl extension cannot: X25519 and Ed25519 (no such key types
// before PHP 8.4) and RSA-PSS (openssl_sign has no padding option; PSS would have to be encoded
// by hand).

declare(strict_types=1);

require_once __DIR__ . '/pubkey.php';

final class OpensslPubkey
{
    private const SIG = ['keygen', 'sign', 'verify'];

    /** catalog id → [operations, kind, OpenSSL names]. */
    public const TABLE = [
        'ecdh-p256' => [['keygen', 'agree'], 'ecdh', 'prime256v1, openssl_pkey_derive'],
        'ecdsa-p256-sha256' => [self::SIG, 'der', 'prime256v1, openssl_sign OPENSSL_ALGO_SHA256'],
        'ecdsa-p256-sha256-p1363' => [self::SIG, 'p1363', 'prime256v1, openssl_sign OPENSSL_ALGO_SHA256 (r||s)'],
        'rsa-2048-pkcs1-sha256' => [self::SIG, 'rsa', 'openssl_sign OPENSSL_ALGO_SHA256 (PKCS#1 v1.5)'],
    ];

    public static function primitives(): array
    {
        $out = [];
        foreach (self::TABLE as $id => [$ops, , $native]) {
            $out[$id] = ['operations' => $ops, 'native' => $native];
        }
        return $out;
    }

    public static function prepare(Request $req): Job
    {
        [$ops, $kind] = self::TABLE[$req->primitive];
        if (!in_array($req->operation, $ops, true)) {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        if ($req->operation === 'keygen') {
            return keygen_job($req, $kind === 'rsa' ? OpensslRsa::keygen(...) : OpensslP256::keygen(...));
        }
        if ($req->operation === 'agree') {
            $peer = $req->bytes('peer_public_key');
            return keyed_job($req, 'private_key', OpensslP256::private(...), static fn ($key): string =>
                OpensslP256::agree($key, $peer));
        }
        [$private, $public] = $kind === 'rsa'
            ? [OpensslRsa::private(...), OpensslRsa::public(...)]
            : [OpensslP256::private(...), OpensslP256::public(...)];
        if ($req->operation === 'verify') {
            return verify_job($req, $public, $kind === 'p1363' ? self::verifyP1363(...) : self::verify(...));
        }
        $msg = $req->bytes('msg');
        return keyed_job($req, 'private_key', $private, static function ($key) use ($msg, $kind): string {
            if (!openssl_sign($msg, $sig, $key, OPENSSL_ALGO_SHA256)) {
                throw internal_error('openssl_sign failed: ' . openssl_error_string());
            }
            return $kind === 'p1363' ? EcdsaDer::toP1363($sig) : $sig;
        });
    }

    private static function verify(OpenSSLAsymmetricKey $key, string $msg, string $sig): bool
    {
        $ok = openssl_verify($msg, $sig, $key, OPENSSL_ALGO_SHA256) === 1;
        while (openssl_error_string() !== false) {
            // a malformed signature leaves errors queued: drain them
        }
        return $ok;
    }

    private static function verifyP1363(OpenSSLAsymmetricKey $key, string $msg, string $sig): bool
    {
        return strlen($sig) === 64 && self::verify($key, $msg, EcdsaDer::fromP1363($sig));
    }
}

/** P-256 keys between the protocol's encodings (scalar, 04‖X‖Y) and OpenSSL's key objects. */
final class OpensslP256
{
    /** The group order n, big-endian: a scalar must be in 1..n-1 (OpenSSL does not check). */
    private const ORDER = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';
    /** SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } up to the BIT STRING's content. */
    private const SPKI_HEADER = '3059301306072a8648ce3d020106082a8648ce3d030107034200';

    public static function keygen(?string $seed): array
    {
        $key = $seed === null
            ? openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'])
            : self::private($seed, 'key_seed');
        if ($key === false) {
            throw internal_error('openssl_pkey_new failed: ' . openssl_error_string());
        }
        $ec = openssl_pkey_get_details($key)['ec'];
        $pad = static fn (string $b): string => str_pad($b, 32, "\0", STR_PAD_LEFT);
        return ["\x04" . $pad($ec['x']) . $pad($ec['y']), $pad($ec['d'])];
    }

    public static function private(string $d, string $what = 'private_key'): OpenSSLAsymmetricKey
    {
        if (strlen($d) !== 32 || $d === str_repeat("\0", 32) || strcmp($d, hex2bin(self::ORDER)) >= 0) {
            throw invalid_params("$what: not a 32-byte P-256 scalar in 1..n-1");
        }
        $key = openssl_pkey_new(['ec' => ['curve_name' => 'prime256v1', 'd' => $d]]);
        if ($key === false) {
            throw invalid_params("$what: refused by OpenSSL: " . openssl_error_string());
        }
        return $key;
    }

    public static function public(string $point, string $what = 'public_key'): OpenSSLAsymmetricKey
    {
        if (strlen($point) !== 65 || $point[0] !== "\x04") {
            throw invalid_params("$what: not an uncompressed SEC1 P-256 point (65 bytes, 04||X||Y)");
        }
        $key = openssl_pkey_get_public(pem('PUBLIC KEY', hex2bin(self::SPKI_HEADER) . $point));
        if ($key === false) {
            throw invalid_params("$what: not a point on P-256: " . openssl_error_string());
        }
        return $key;
    }

    public static function agree(OpenSSLAsymmetricKey $key, string $peer): string
    {
        $secret = openssl_pkey_derive(self::public($peer, 'peer_public_key'), $key, 32);
        if ($secret === false) {
            throw invalid_params('peer_public_key: refused by openssl_pkey_derive: ' . openssl_error_string());
        }
        return $secret;
    }
}

/** RSA-2048 keys: DER SubjectPublicKeyInfo and PKCS#8, through PEM. */
final class OpensslRsa
{
    public static function keygen(?string $seed): array
    {
        if ($seed !== null) {
            throw unsupported('this key type has no key generation from a seed');
        }
        $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048]);
        if ($key === false || !openssl_pkey_export($key, $private)) {
            throw internal_error('RSA key generation failed: ' . openssl_error_string());
        }
        return [unpem(openssl_pkey_get_details($key)['key']), unpem($private)];
    }

    public static function private(string $der): OpenSSLAsymmetricKey
    {
        return self::checked(openssl_pkey_get_private(pem('PRIVATE KEY', $der)), 'private_key');
    }

    public static function public(string $der): OpenSSLAsymmetricKey
    {
        return self::checked(openssl_pkey_get_public(pem('PUBLIC KEY', $der)), 'public_key');
    }

    private static function checked(OpenSSLAsymmetricKey|false $key, string $what): OpenSSLAsymmetricKey
    {
        $details = $key === false ? [] : openssl_pkey_get_details($key);
        if ($key === false || ($details['type'] ?? null) !== OPENSSL_KEYTYPE_RSA || $details['bits'] !== 2048) {
            throw invalid_params("$what: not an RSA-2048 key: " . openssl_error_string());
        }
        return $key;
    }
}

/** ECDSA P-256 signatures between DER SEQUENCE { r, s } and IEEE P1363 r‖s (an encoding only). */
final class EcdsaDer
{
    public static function fromP1363(string $rs): string
    {
        $body = self::integer(substr($rs, 0, 32)) . self::integer(substr($rs, 32, 32));
        return "\x30" . chr(strlen($body)) . $body;
    }

    /** r‖s of a DER signature OpenSSL made (short-form lengths: at most 72 bytes for P-256). */
    public static function toP1363(string $der): string
    {
        $rLen = ord($der[3]);
        $r = substr($der, 4, $rLen);
        $s = substr($der, 4 + $rLen + 2, ord($der[4 + $rLen + 1]));
        $pad = static fn (string $v): string => str_pad(ltrim($v, "\0"), 32, "\0", STR_PAD_LEFT);
        return $pad($r) . $pad($s);
    }

    /** A DER INTEGER of a non-negative big-endian value: minimal, with a 0 byte before a set top bit. */
    private static function integer(string $v): string
    {
        $v = ltrim($v, "\0");
        if ($v === '' || ord($v[0]) >= 0x80) {
            $v = "\0" . $v;
        }
        return "\x02" . chr(strlen($v)) . $v;
    }
}

function pem(string $label, string $der): string
{
    return "-----BEGIN $label-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END $label-----\n";
}

function unpem(string $pem): string
{
    return (string) base64_decode(preg_replace('/-----[A-Z ]+-----|\s+/', '', $pem), true);
}
