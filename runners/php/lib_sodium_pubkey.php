<?php

// php/sodium's public-key rows (added to lib_sodium.php's table): X25519 (crypto_scalarmult,
// keys from crypto_kx_keypair) and Ed25519 (crypto_sign_detached / verify_detached). A private
// Ed25519 key arrives as the 32-byte RFC 8032 secret: crypto_sign_seed_keypair expands it once
// per case (in every call with fresh_context). X25519 keys need no parsing.

declare(strict_types=1);

require_once __DIR__ . '/pubkey.php';

final class SodiumPubkey
{
    /** catalog id → [operations, libsodium names]. */
    public const TABLE = [
        'x25519' => [['keygen', 'agree'], 'crypto_kx_keypair, crypto_scalarmult'],
        'ed25519' => [['keygen', 'sign', 'verify'], 'crypto_sign_seed_keypair, crypto_sign_detached'],
    ];

    public static function primitives(): array
    {
        $out = [];
        foreach (self::TABLE as $id => [$ops, $native]) {
            $out[$id] = ['operations' => $ops, 'native' => $native];
        }
        return $out;
    }

    public static function prepare(Request $req): Job
    {
        if (!in_array($req->operation, self::TABLE[$req->primitive][0], true)) {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        return match ([$req->primitive, $req->operation]) {
            ['x25519', 'keygen'] => keygen_job($req, self::x25519Keygen(...)),
            ['x25519', 'agree'] => self::agree($req),
            ['ed25519', 'keygen'] => keygen_job($req, self::ed25519Keygen(...)),
            ['ed25519', 'sign'] => self::sign($req),
            ['ed25519', 'verify'] => verify_job($req, self::ed25519Public(...), self::verify(...)),
        };
    }

    private static function x25519Keygen(?string $seed): array
    {
        if ($seed !== null) {
            return [sodium_crypto_scalarmult_base($seed), $seed];
        }
        $pair = sodium_crypto_kx_keypair();
        return [sodium_crypto_kx_publickey($pair), sodium_crypto_kx_secretkey($pair)];
    }

    private static function agree(Request $req): Job
    {
        $peer = $req->bytes('peer_public_key');
        if (strlen($peer) !== 32) {
            throw invalid_params('peer_public_key: an X25519 public key is 32 bytes');
        }
        $load = static function (string $raw): string {
            if (strlen($raw) !== 32) {
                throw invalid_params('private_key: an X25519 private key is 32 bytes');
            }
            return $raw;
        };
        return keyed_job($req, 'private_key', $load, static function (string $key) use ($peer): string {
            try {
                return sodium_crypto_scalarmult($key, $peer);
            } catch (SodiumException $e) { // an all-zero result: a low-order peer key
                throw invalid_params('peer_public_key: ' . $e->getMessage());
            }
        });
    }

    private static function ed25519Keygen(?string $seed): array
    {
        $pair = $seed === null ? sodium_crypto_sign_keypair() : sodium_crypto_sign_seed_keypair($seed);
        return [sodium_crypto_sign_publickey($pair), substr(sodium_crypto_sign_secretkey($pair), 0, 32)];
    }

    private static function sign(Request $req): Job
    {
        $msg = $req->bytes('msg');
        $load = static function (string $raw): string {
            if (strlen($raw) !== 32) {
                throw invalid_params('private_key: an Ed25519 private key is 32 bytes');
            }
            return sodium_crypto_sign_secretkey(sodium_crypto_sign_seed_keypair($raw));
        };
        return keyed_job($req, 'private_key', $load, static fn (string $sk): string =>
            sodium_crypto_sign_detached($msg, $sk));
    }

    private static function ed25519Public(string $raw): string
    {
        if (strlen($raw) !== 32) {
            throw invalid_params('public_key: an Ed25519 public key is 32 bytes');
        }
        return $raw;
    }

    private static function verify(string $public, string $msg, string $sig): bool
    {
        if (strlen($sig) !== 64) {
            return false; // libsodium would throw on the length
        }
        return sodium_crypto_sign_verify_detached($sig, $msg, $public);
    }
}
