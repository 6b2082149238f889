<?php

// php/hash: PHP's hash extension — every algorithm hash_algos() returns, hash_hmac and
// hash_pbkdf2. One dispatch table: catalog id → [operation kind, PHP name, output form, seed].

declare(strict_types=1);

final class HashLib implements Library
{
    // Output forms: 'bytes' = as hash() prints it; 'rev32' = reverse the 4 bytes (PHP prints
    // the BZIP2 CRC byte-swapped); 'words32' / 'words64' = reverse every 4- / 8-byte word
    // (PHP prints murmur3's h1…hn big-endian; the reference buffer holds them little-endian).
    // Seed: null = no seed param; 32 / 64 = params.seed through hash()'s options array.
    private const TABLE = [
        'md2' => ['digest', 'md2'],
        'md4' => ['digest', 'md4'],
        'md5' => ['digest', 'md5'],
        'sha1' => ['digest', 'sha1'],
        'sha224' => ['digest', 'sha224'],
        'sha256' => ['digest', 'sha256'],
        'sha384' => ['digest', 'sha384'],
        'sha512-224' => ['digest', 'sha512/224'],
        'sha512-256' => ['digest', 'sha512/256'],
        'sha512' => ['digest', 'sha512'],
        'sha3-224' => ['digest', 'sha3-224'],
        'sha3-256' => ['digest', 'sha3-256'],
        'sha3-384' => ['digest', 'sha3-384'],
        'sha3-512' => ['digest', 'sha3-512'],
        'ripemd128' => ['digest', 'ripemd128'],
        'ripemd160' => ['digest', 'ripemd160'],
        'ripemd256' => ['digest', 'ripemd256'],
        'ripemd320' => ['digest', 'ripemd320'],
        'whirlpool' => ['digest', 'whirlpool'],
        'tiger128-3' => ['digest', 'tiger128,3'],
        'tiger160-3' => ['digest', 'tiger160,3'],
        'tiger192-3' => ['digest', 'tiger192,3'],
        'tiger128-4' => ['digest', 'tiger128,4'],
        'tiger160-4' => ['digest', 'tiger160,4'],
        'tiger192-4' => ['digest', 'tiger192,4'],
        'snefru256' => ['digest', 'snefru256'],
        'gost94-test' => ['digest', 'gost'],
        'gost94-cryptopro' => ['digest', 'gost-crypto'],
        'adler32' => ['digest', 'adler32'],
        'crc32-bzip2' => ['digest', 'crc32', 'rev32'],
        'crc32' => ['digest', 'crc32b'],
        'crc32c' => ['digest', 'crc32c'],
        'fnv1-32' => ['digest', 'fnv132'],
        'fnv1a-32' => ['digest', 'fnv1a32'],
        'fnv1-64' => ['digest', 'fnv164'],
        'fnv1a-64' => ['digest', 'fnv1a64'],
        'joaat' => ['digest', 'joaat'],
        'murmur3-x86-32' => ['digest', 'murmur3a', 'bytes', 32],
        'murmur3-x86-128' => ['digest', 'murmur3c', 'words32', 32],
        'murmur3-x64-128' => ['digest', 'murmur3f', 'words64', 32],
        'xxh32' => ['digest', 'xxh32', 'bytes', 32],
        'xxh64' => ['digest', 'xxh64', 'bytes', 64],
        'xxh3-64' => ['digest', 'xxh3', 'bytes', 64],
        'xxh3-128' => ['digest', 'xxh128', 'bytes', 64],
        'haval128-3' => ['digest', 'haval128,3'],
        'haval160-3' => ['digest', 'haval160,3'],
        'haval192-3' => ['digest', 'haval192,3'],
        'haval224-3' => ['digest', 'haval224,3'],
        'haval256-3' => ['digest', 'haval256,3'],
        'haval128-4' => ['digest', 'haval128,4'],
        'haval160-4' => ['digest', 'haval160,4'],
        'haval192-4' => ['digest', 'haval192,4'],
        'haval224-4' => ['digest', 'haval224,4'],
        'haval256-4' => ['digest', 'haval256,4'],
        'haval128-5' => ['digest', 'haval128,5'],
        'haval160-5' => ['digest', 'haval160,5'],
        'haval192-5' => ['digest', 'haval192,5'],
        'haval224-5' => ['digest', 'haval224,5'],
        'haval256-5' => ['digest', 'haval256,5'],
        'hmac-sha256' => ['mac', 'sha256'],
        'pbkdf2-sha1' => ['derive', 'sha1'],
        'pbkdf2-sha256' => ['derive', 'sha256'],
        'pbkdf2-sha512' => ['derive', 'sha512'],
    ];

    // PHP names that are another name for a mapped algorithm ('snefru' is snefru256, not Snefru-128).
    private const ALIASES = ['snefru'];

    private const OPERATIONS = ['digest' => ['digest'], 'mac' => ['mac', 'verify'], 'derive' => ['derive']];

    public function name(): string
    {
        return 'hash';
    }

    public function describe(): array
    {
        $primitives = [];
        foreach (self::TABLE as $id => $row) {
            if (self::available($row)) {
                $primitives[$id] = ['operations' => self::OPERATIONS[$row[0]], 'native' => $row[1]];
            }
        }
        $mapped = array_map(static fn (array $row): string => $row[1], self::TABLE);
        $unmapped = array_values(array_diff(hash_algos(), $mapped, self::ALIASES));
        foreach ($unmapped as $algo) {
            fwrite(STDERR, "php/hash: hash_algos() has $algo, which has no catalog id\n");
        }
        return [
            'library' => 'hash',
            'version' => phpversion('hash'),
            'backend' => ['name' => 'php-hash', 'version' => PHP_VERSION],
            'code_path' => 'PHP C code (ext/hash); crc32, crc32b, crc32c fold with PCLMULQDQ when the CPU '
                . 'has SSE4.2 + PCLMUL (ext/standard/crc32_x86.c), byte tables otherwise',
            'notes' => 'hash($algo, $msg, true) one-shot; hmac-sha256: hash_hmac (fresh) or a keyed '
                . 'hash_init context copied per message (reused), verify: that MAC, then hash_equals; '
                . 'pbkdf2: hash_pbkdf2'
                . ($unmapped ? '; not in the catalog: ' . implode(' ', $unmapped) : ''),
            'primitives' => $primitives,
        ];
    }

    public function prepare(Request $req): Job
    {
        $row = self::TABLE[$req->primitive] ?? null;
        if ($row === null || !self::available($row)) {
            throw unsupported("php/hash does not offer $req->primitive");
        }
        if (!in_array($req->operation, self::OPERATIONS[$row[0]], true)) {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        return match ($row[0]) {
            'digest' => self::digest($req, $row[1], $row[2] ?? 'bytes', $row[3] ?? null),
            'mac' => $req->operation === 'verify' ? self::verify($req, $row[1]) : self::mac($req, $row[1]),
            'derive' => self::pbkdf2($req, $row[1]),
        };
    }

    private static function available(array $row): bool
    {
        return in_array($row[1], $row[0] === 'mac' ? hash_hmac_algos() : hash_algos(), true);
    }

    private static function digest(Request $req, string $algo, string $form, ?int $seedBits): Job
    {
        $req->allowParams($seedBits === null ? [] : ['seed']);
        $msg = $req->bytes('msg');
        $opts = match ($seedBits) {
            null => [],
            32 => ['seed' => $req->int('seed', 0, 0xffffffff)],
            64 => ['seed' => $req->u64('seed')],
        };
        return new Job(
            static fn (): string => self::canonical(hash($algo, $msg, true, $opts), $form),
            static function (int $n) use ($algo, $msg, $opts): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = hash($algo, $msg, true, $opts);
                }
                return $out ?? '';
            },
        );
    }

    /** PHP's printed form → the protocol's canonical bytes, as hex. */
    private static function canonical(string $raw, string $form): string
    {
        return bin2hex(match ($form) {
            'bytes' => $raw,
            'rev32' => strrev($raw),
            'words32' => implode('', array_map('strrev', str_split($raw, 4))),
            'words64' => implode('', array_map('strrev', str_split($raw, 8))),
        });
    }

    private static function mac(Request $req, string $algo): Job
    {
        $req->allowParams([]);
        [$key, $msg] = [$req->bytes('key'), $req->bytes('msg')];
        $once = static fn (): string => bin2hex(hash_hmac($algo, $msg, $key, true));
        if ($req->fresh()) {
            return new Job($once, static function (int $n) use ($algo, $msg, $key): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = hash_hmac($algo, $msg, $key, true);
                }
                return $out ?? '';
            });
        }
        $keyed = hash_init($algo, HASH_HMAC, $key);
        $reused = static function () use ($keyed, $msg): string {
            $ctx = hash_copy($keyed);
            hash_update($ctx, $msg);
            return hash_final($ctx, true);
        };
        return new Job(static fn (): string => bin2hex($reused()), static function (int $n) use ($keyed, $msg): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $ctx = hash_copy($keyed);
                hash_update($ctx, $msg);
                $out = hash_final($ctx, true);
            }
            return $out ?? '';
        });
    }

    /**
     * The MAC computed as mac() does, then hash_equals (false for a tag of any other length):
     * "ok", else auth_failed. The timed loop checks the tag as sent, as once() did.
     */
    private static function verify(Request $req, string $algo): Job
    {
        $req->allowParams([]);
        [$key, $msg, $tag] = [$req->bytes('key'), $req->bytes('msg'), $req->bytes('tag')];
        $keyed = $req->fresh() ? null : hash_init($algo, HASH_HMAC, $key);
        $once = static function () use ($algo, $key, $msg, $tag, $keyed): string {
            if ($keyed === null) {
                $mac = hash_hmac($algo, $msg, $key, true);
            } else {
                $ctx = hash_copy($keyed);
                hash_update($ctx, $msg);
                $mac = hash_final($ctx, true);
            }
            if (!hash_equals($mac, $tag)) {
                throw auth_failed('tag does not verify');
            }
            return 'ok';
        };
        if ($keyed === null) {
            return new Job($once, static function (int $n) use ($algo, $msg, $key, $tag): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = hash_equals(hash_hmac($algo, $msg, $key, true), $tag);
                }
                return $out ?? '';
            });
        }
        return new Job($once, static function (int $n) use ($keyed, $msg, $tag): mixed {
            for ($i = 0; $i < $n; ++$i) {
                $ctx = hash_copy($keyed);
                hash_update($ctx, $msg);
                $out = hash_equals(hash_final($ctx, true), $tag);
            }
            return $out ?? '';
        });
    }

    private static function pbkdf2(Request $req, string $algo): Job
    {
        $req->allowParams(['iterations', 'out_len']);
        $iterations = $req->int('iterations', 1, PHP_INT_MAX);
        $len = $req->int('out_len', 1, 1 << 20);
        [$pw, $salt] = [$req->bytes('password'), $req->bytes('salt')];
        return new Job(
            static fn (): string => bin2hex(hash_pbkdf2($algo, $pw, $salt, $iterations, $len, true)),
            static function (int $n) use ($algo, $pw, $salt, $iterations, $len): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = hash_pbkdf2($algo, $pw, $salt, $iterations, $len, true);
                }
                return $out ?? '';
            },
        );
    }
}
