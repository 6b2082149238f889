<?php

// php/sodium: PHP's sodium extension (libsodium) — generichash, the IETF AEADs, crypto_pwhash
// (Argon2). One dispatch table: catalog id → [kind, libsodium name].
// Every libsodium call PHP exposes is one-shot (no beforenm/afternm, no state objects), so
// the AEADs declare reuses_key: false.

declare(strict_types=1);

require_once __DIR__ . '/lib_sodium_pubkey.php';

final class SodiumLib implements Library
{
    private const TABLE = [
        'blake2b-512' => ['generichash', 'generichash'],
        'chacha20-poly1305' => ['aead', 'chacha20poly1305_ietf', 12],
        'xchacha20-poly1305' => ['aead', 'xchacha20poly1305_ietf', 24],
        'aes-256-gcm' => ['aead', 'aes256gcm', 12],
        'argon2id' => ['argon2', SODIUM_CRYPTO_PWHASH_ALG_ARGON2ID13, 1],
        'argon2i' => ['argon2', SODIUM_CRYPTO_PWHASH_ALG_ARGON2I13, 3],
    ];

    private const OPERATIONS = [
        'generichash' => ['digest'],
        'aead' => ['seal', 'open', 'roundtrip'],
        'argon2' => ['hash', 'verify', 'derive'],
    ];

    public function name(): string
    {
        return 'sodium';
    }

    public function describe(): array
    {
        $primitives = [];
        foreach (self::TABLE as $id => $row) {
            if (!self::offered($row)) {
                continue;
            }
            $entry = ['operations' => self::operations($id, $row), 'native' => self::native($id, $row)];
            if ($row[0] === 'aead') {
                $entry['reuses_key'] = false;
            } elseif ($id === 'argon2id') {
                $entry['takes_salt'] = false;
            }
            $primitives[$id] = $entry;
        }
        $primitives += SodiumPubkey::primitives();
        $aes = sodium_crypto_aead_aes256gcm_is_available();
        return [
            'library' => 'sodium',
            'version' => phpversion('sodium'),
            'backend' => ['name' => 'libsodium', 'version' => SODIUM_LIBRARY_VERSION],
            'code_path' => 'libsodium runtime CPU detection; aes256gcm '
                . ($aes ? 'available (AES-NI + PCLMUL found)' : 'unavailable'),
            'notes' => 'one-shot sodium_crypto_* calls; argon2id hash = crypto_pwhash_str (libsodium picks '
                . 'the salt; p is always 1); argon2i: derive and verify only (crypto_pwhash_str makes '
                . 'argon2id); scrypt not offered: crypto_pwhash_scryptsalsa208sha256 takes only 32-byte salts',
            'primitives' => $primitives,
        ];
    }

    public function prepare(Request $req): Job
    {
        if (isset(SodiumPubkey::TABLE[$req->primitive])) {
            return SodiumPubkey::prepare($req);
        }
        $row = self::TABLE[$req->primitive] ?? null;
        if ($row === null || !self::offered($row)) {
            throw unsupported("php/sodium does not offer $req->primitive");
        }
        if (!in_array($req->operation, self::operations($req->primitive, $row), true)) {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        return match ($row[0]) {
            'generichash' => self::generichash($req),
            'aead' => SodiumAead::prepare($req, $row[1], $row[2]),
            'argon2' => SodiumPwhash::argon2($req, $row[1], $row[2]),
        };
    }

    /** libsodium offers AES-256-GCM only where it finds AES-NI and PCLMUL. */
    private static function offered(array $row): bool
    {
        return $row[1] !== 'aes256gcm' || sodium_crypto_aead_aes256gcm_is_available();
    }

    private static function operations(string $id, array $row): array
    {
        return $id === 'argon2i' ? ['verify', 'derive'] : self::OPERATIONS[$row[0]];
    }

    private static function native(string $id, array $row): string
    {
        return match ($row[0]) {
            'argon2' => "crypto_pwhash_$id",
            'aead' => "crypto_aead_$row[1]",
            default => 'crypto_generichash',
        };
    }

    private static function generichash(Request $req): Job
    {
        $req->allowParams([]);
        $msg = $req->bytes('msg');
        return new Job(
            static fn (): string => bin2hex(sodium_crypto_generichash($msg, '', 64)),
            static function (int $n) use ($msg): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = sodium_crypto_generichash($msg, '', 64);
                }
                return $out ?? '';
            },
        );
    }
}

/** The sodium_crypto_aead_*_ietf / aes256gcm calls of the table, with the nonce stepped. */
final class SodiumAead
{
    private const TAG_LEN = 16;

    public static function prepare(Request $req, string $name, int $nonceLen): Job
    {
        $req->allowParams(['aad_len']);
        $req->requireFresh();
        [$key, $nonce, $aad, $msg] = [$req->bytes('key'), $req->bytes('nonce'), $req->aadBytes(), $req->bytes('msg')];
        if (strlen($key) !== 32 || strlen($nonce) !== $nonceLen) {
            throw invalid_params("$req->primitive takes a 32-byte key and a $nonceLen-byte nonce");
        }
        $req->aadLenLabel();
        // Fixed per table row; a call through a string costs one name lookup (a few ns, docs/runners/php.md).
        [$seal, $open] = ["sodium_crypto_aead_{$name}_encrypt", "sodium_crypto_aead_{$name}_decrypt"];
        if ($req->operation === 'open') {
            return self::open($open, $key, $nonce, $aad, $msg);
        }
        $trip = $req->operation === 'roundtrip';
        $once = static function () use ($seal, $open, $key, $nonce, $aad, $msg, $trip): string {
            $out = $seal($msg, $aad, $nonce, $key);
            if ($trip && $open($out, $aad, $nonce, $key) !== $msg) {
                throw internal_error('open did not give the message back');
            }
            return bin2hex($out);
        };
        [$head, $ctr] = nonce_counter($nonce);
        $loop = static function (int $n) use ($seal, $open, $key, $head, &$ctr, $aad, $msg, $trip): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $iv = $head . pack('N', ++$ctr); // pack keeps the low 32 bits: wraps
                $out = $seal($msg, $aad, $iv, $key);
                if ($trip) {
                    $out = $open($out, $aad, $iv, $key);
                }
            }
            return $out ?? '';
        };
        return new Job($once, $loop);
    }

    private static function open(string $open, string $key, string $nonce, string $aad, string $sealed): Job
    {
        if (strlen($sealed) < self::TAG_LEN) {
            throw auth_failed('input is shorter than the 16-byte tag');
        }
        $once = static function () use ($open, $key, $nonce, $aad, $sealed): string {
            $pt = $open($sealed, $aad, $nonce, $key);
            if ($pt === false) {
                throw auth_failed('tag does not verify');
            }
            return bin2hex($pt);
        };
        return new Job($once, static function (int $n) use ($open, $key, $nonce, $aad, $sealed): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $out = $open($sealed, $aad, $nonce, $key);
            }
            return $out ?? '';
        });
    }
}

/** crypto_pwhash (Argon2, p = 1): hash, verify, derive. */
final class SodiumPwhash
{
    public static function argon2(Request $req, int $alg, int $minT): Job
    {
        $req->allowParams(['t', 'm', 'p', 'out_len']);
        $pw = $req->bytes('password');
        if ($req->operation === 'verify') {
            return self::verify($req, $pw, $alg);
        }
        $t = $req->int('t', 1, 0xffffffff);
        $mem = $req->int('m', 1, 0xffffffff) * 1024;
        $len = $req->int('out_len', 1, 0xffffffff);
        if ($t < $minT) {
            throw invalid_params("libsodium's $req->primitive needs t >= $minT");
        }
        if ($mem < 8192 || $req->int('p', 1, 0xffffff) !== 1) {
            throw invalid_params('libsodium needs m >= 8 KiB and p = 1');
        }
        if ($req->operation === 'hash') {
            if ($len !== 32) {
                throw invalid_params('crypto_pwhash_str always makes a 32-byte hash: out_len must be 32');
            }
            return per_call_job(static fn (): string => sodium_crypto_pwhash_str($pw, $t, $mem));
        }
        $salt = $req->bytes('salt');
        if (strlen($salt) !== SODIUM_CRYPTO_PWHASH_SALTBYTES || $len < 16) {
            throw invalid_params('crypto_pwhash takes a 16-byte salt and out_len >= 16');
        }
        return per_call_job(static fn (): string => bin2hex(sodium_crypto_pwhash($len, $pw, $salt, $t, $mem, $alg)));
    }

    private static function verify(Request $req, string $pw, int $alg): Job
    {
        $encoded = $req->text('encoded');
        $prefix = $alg === SODIUM_CRYPTO_PWHASH_ALG_ARGON2ID13 ? '$argon2id$' : '$argon2i$';
        if (!str_starts_with($encoded, $prefix)) {
            throw invalid_params("encoded is not a $prefix string");
        }
        return per_call_job(static function () use ($encoded, $pw): string {
            if (!sodium_crypto_pwhash_str_verify($encoded, $pw)) {
                throw auth_failed('password does not match');
            }
            return 'ok';
        });
    }
}
