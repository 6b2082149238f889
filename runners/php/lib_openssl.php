<?php

// php/openssl: PHP's openssl extension — openssl_encrypt/openssl_decrypt (AES-CTR and the
// AEADs), openssl_digest, openssl_pbkdf2. One dispatch table: catalog id → [kind, OpenSSL
// name, key length]. openssl_encrypt has no reusable context: every call builds an
// EVP_CIPHER_CTX and expands the key, so ciphers declare reuses_key: false.

declare(strict_types=1);

require_once __DIR__ . '/lib_openssl_pubkey.php';

final class OpensslLib implements Library
{
    private const TAG_LEN = 16;

    private const TABLE = [
        'aes-128-ctr' => ['ctr', 'aes-128-ctr', 16],
        'aes-256-ctr' => ['ctr', 'aes-256-ctr', 32],
        'aes-128-gcm' => ['aead', 'aes-128-gcm', 16],
        'aes-256-gcm' => ['aead', 'aes-256-gcm', 32],
        'aes-128-ocb' => ['aead', 'aes-128-ocb', 16],
        'aes-256-ocb' => ['aead', 'aes-256-ocb', 32],
        'chacha20-poly1305' => ['aead', 'chacha20-poly1305', 32],
        'md4' => ['digest', 'md4'],
        'md5' => ['digest', 'md5'],
        'sha1' => ['digest', 'sha1'],
        'sha224' => ['digest', 'sha224'],
        'sha256' => ['digest', 'sha256'],
        'sha384' => ['digest', 'sha384'],
        'sha512' => ['digest', 'sha512'],
        'sha512-224' => ['digest', 'sha512-224'],
        'sha512-256' => ['digest', 'sha512-256'],
        'sha3-224' => ['digest', 'sha3-224'],
        'sha3-256' => ['digest', 'sha3-256'],
        'sha3-384' => ['digest', 'sha3-384'],
        'sha3-512' => ['digest', 'sha3-512'],
        'blake2b-512' => ['digest', 'blake2b512'],
        'blake2s-256' => ['digest', 'blake2s256'],
        'ripemd160' => ['digest', 'ripemd160'],
        'whirlpool' => ['digest', 'whirlpool'],
        'sm3' => ['digest', 'sm3'],
        'pbkdf2-sha1' => ['derive', 'sha1'],
        'pbkdf2-sha256' => ['derive', 'sha256'],
        'pbkdf2-sha512' => ['derive', 'sha512'],
    ];

    private const OPERATIONS = [
        'ctr' => ['encrypt', 'roundtrip'],
        'aead' => ['seal', 'open', 'roundtrip'],
        'digest' => ['digest'],
        'derive' => ['derive'],
    ];

    public function name(): string
    {
        return 'openssl';
    }

    public function describe(): array
    {
        $primitives = [];
        foreach (self::TABLE as $id => $row) {
            if (self::available($row)) {
                $entry = ['operations' => self::OPERATIONS[$row[0]], 'native' => $row[1]];
                if ($row[0] === 'ctr' || $row[0] === 'aead') {
                    $entry['reuses_key'] = false;
                }
                $primitives[$id] = $entry;
            }
        }
        $primitives += OpensslPubkey::primitives();
        preg_match('/OpenSSL (\S+)/', OPENSSL_VERSION_TEXT, $m);
        return [
            'library' => 'openssl',
            'version' => phpversion('openssl'),
            'backend' => ['name' => 'openssl', 'version' => $m[1] ?? OPENSSL_VERSION_TEXT],
            'code_path' => 'OpenSSL runtime CPU dispatch (OPENSSL_ia32cap '
                . (getenv('OPENSSL_ia32cap') ? '= ' . getenv('OPENSSL_ia32cap') : 'not set') . ')',
            'notes' => 'openssl_encrypt/openssl_decrypt with OPENSSL_RAW_DATA: a new context and key '
                . 'schedule per call (reuses_key: false); openssl_digest one-shot; openssl_pbkdf2. '
                . 'Algorithms OpenSSL 3 keeps in its legacy provider (md4, whirlpool) are listed only if they run.',
            'primitives' => $primitives,
        ];
    }

    public function prepare(Request $req): Job
    {
        if (isset(OpensslPubkey::TABLE[$req->primitive])) {
            return OpensslPubkey::prepare($req);
        }
        $row = self::TABLE[$req->primitive] ?? null;
        if ($row === null || !self::available($row)) {
            throw unsupported("php/openssl does not offer $req->primitive");
        }
        if (!in_array($req->operation, self::OPERATIONS[$row[0]], true)) {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        return match ($row[0]) {
            'ctr' => self::ctr($req, $row[1], $row[2]),
            'aead' => self::aead($req, $row[1], $row[2]),
            'digest' => self::digest($req, $row[1]),
            'derive' => self::pbkdf2($req, $row[1]),
        };
    }

    private static function available(array $row): bool
    {
        if ($row[0] === 'digest') {
            return @openssl_digest('', $row[1], true) !== false;
        }
        $methods = $row[0] === 'derive' ? openssl_get_md_methods() : openssl_get_cipher_methods();
        return in_array($row[1], $methods, true);
    }

    /** Key and nonce inputs with the lengths the catalog fixes (PHP would pad or cut them). */
    private static function keyNonce(Request $req, int $keyLen, int $nonceLen): array
    {
        $req->requireFresh();
        [$key, $nonce] = [$req->bytes('key'), $req->bytes('nonce')];
        if (strlen($key) !== $keyLen || strlen($nonce) !== $nonceLen) {
            throw invalid_params("$req->primitive takes a $keyLen-byte key and a $nonceLen-byte nonce");
        }
        return [$key, $nonce];
    }

    private static function ctr(Request $req, string $cipher, int $keyLen): Job
    {
        $req->allowParams([]);
        [$key, $iv] = self::keyNonce($req, $keyLen, 16);
        $msg = $req->bytes('msg');
        $trip = $req->operation === 'roundtrip';
        $once = static function () use ($cipher, $key, $iv, $msg, $trip): string {
            $ct = openssl_encrypt($msg, $cipher, $key, OPENSSL_RAW_DATA, $iv);
            if ($trip && openssl_decrypt($ct, $cipher, $key, OPENSSL_RAW_DATA, $iv) !== $msg) {
                throw internal_error('decrypt did not give the message back');
            }
            return bin2hex($ct);
        };
        [$head, $ctr] = nonce_counter($iv);
        return new Job($once, static function (int $n) use ($cipher, $key, $head, &$ctr, $msg, $trip): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $iv = $head . pack('N', ++$ctr); // pack keeps the low 32 bits: wraps
                $out = openssl_encrypt($msg, $cipher, $key, OPENSSL_RAW_DATA, $iv);
                if ($trip) {
                    $out = openssl_decrypt($out, $cipher, $key, OPENSSL_RAW_DATA, $iv);
                }
            }
            return $out ?? '';
        });
    }

    private static function aead(Request $req, string $cipher, int $keyLen): Job
    {
        $req->allowParams(['aad_len']);
        [$key, $nonce] = self::keyNonce($req, $keyLen, 12);
        [$aad, $msg] = [$req->aadBytes(), $req->bytes('msg')];
        $req->aadLenLabel();
        if ($req->operation === 'open') {
            return self::open($cipher, $key, $nonce, $aad, $msg);
        }
        $trip = $req->operation === 'roundtrip';
        $once = static function () use ($cipher, $key, $nonce, $aad, $msg, $trip): string {
            $tag = '';
            $ct = openssl_encrypt($msg, $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad, self::TAG_LEN);
            if ($trip && openssl_decrypt($ct, $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad) !== $msg) {
                throw internal_error('open did not give the message back');
            }
            return bin2hex($ct . $tag);
        };
        [$head, $ctr] = nonce_counter($nonce);
        return new Job($once, static function (int $n) use ($cipher, $key, $head, &$ctr, $aad, $msg, $trip): mixed {
            $tag = '';
            for ($i = 0; $i < $n; ++$i) {
                $iv = $head . pack('N', ++$ctr); // pack keeps the low 32 bits: wraps
                $out = openssl_encrypt($msg, $cipher, $key, OPENSSL_RAW_DATA, $iv, $tag, $aad, self::TAG_LEN);
                if ($trip) {
                    $out = openssl_decrypt($out, $cipher, $key, OPENSSL_RAW_DATA, $iv, $tag, $aad);
                }
            }
            return $out ?? '';
        });
    }

    private static function open(string $cipher, string $key, string $nonce, string $aad, string $sealed): Job
    {
        if (strlen($sealed) < self::TAG_LEN) {
            throw auth_failed('input is shorter than the 16-byte tag');
        }
        [$ct, $tag] = [substr($sealed, 0, -self::TAG_LEN), substr($sealed, -self::TAG_LEN)];
        $once = static function () use ($cipher, $key, $nonce, $aad, $ct, $tag): string {
            $pt = openssl_decrypt($ct, $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
            if ($pt === false) {
                throw auth_failed('tag does not verify');
            }
            return bin2hex($pt);
        };
        return new Job($once, static function (int $n) use ($cipher, $key, $nonce, $aad, $ct, $tag): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $out = openssl_decrypt($ct, $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
            }
            return $out ?? '';
        });
    }

    private static function digest(Request $req, string $algo): Job
    {
        $req->allowParams([]);
        $msg = $req->bytes('msg');
        return new Job(
            static fn (): string => bin2hex(openssl_digest($msg, $algo, true)),
            static function (int $n) use ($algo, $msg): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = openssl_digest($msg, $algo, true);
                }
                return $out ?? '';
            },
        );
    }

    private static function pbkdf2(Request $req, string $algo): Job
    {
        $req->allowParams(['iterations', 'out_len']);
        $iterations = $req->int('iterations', 1, 0x7fffffff);
        $len = $req->int('out_len', 1, 1 << 20);
        [$pw, $salt] = [$req->bytes('password'), $req->bytes('salt')];
        return new Job(
            static fn (): string => bin2hex(openssl_pbkdf2($pw, $salt, $len, $iterations, $algo)),
            static function (int $n) use ($algo, $pw, $salt, $iterations, $len): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = openssl_pbkdf2($pw, $salt, $len, $iterations, $algo);
                }
                return $out ?? '';
            },
        );
    }
}
