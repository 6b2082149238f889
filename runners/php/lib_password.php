<?php

// php/password: password_hash / password_verify. One dispatch table: catalog id → [PHP
// algorithm, the encoded prefixes it verifies, its cost parameters]. password_hash always
// makes its own salt (takes_salt: false), so known answers go through verify.

declare(strict_types=1);

final class PasswordLib implements Library
{
    private const TABLE = [
        'bcrypt' => [PASSWORD_BCRYPT, ['$2a$', '$2b$', '$2y$'], ['cost']],
        'argon2id' => [PASSWORD_ARGON2ID, ['$argon2id$'], ['t', 'm', 'p', 'out_len']],
        'argon2i' => [PASSWORD_ARGON2I, ['$argon2i$'], ['t', 'm', 'p', 'out_len']],
    ];

    public function name(): string
    {
        return 'password';
    }

    public function describe(): array
    {
        $primitives = [];
        foreach (self::TABLE as $id => $row) {
            if (in_array($row[0], password_algos(), true)) {
                $primitives[$id] = [
                    'operations' => ['hash', 'verify'],
                    'takes_salt' => false,
                    'native' => 'PASSWORD_' . strtoupper($id),
                ];
            }
        }
        $argon2 = defined('PASSWORD_ARGON2_PROVIDER') ? PASSWORD_ARGON2_PROVIDER : 'none';
        return [
            'library' => 'password',
            'version' => PHP_VERSION,
            'backend' => ['name' => 'php-password', 'version' => PHP_VERSION],
            'code_path' => "bcrypt: PHP's crypt_blowfish; argon2: PASSWORD_ARGON2_PROVIDER=$argon2"
                . ($argon2 === 'standard' ? ' (libargon2, threads = p)' : ''),
            'notes' => 'password_hash picks the salt; bcrypt output $2y$ shown as $2b$; bcrypt silently '
                . 'uses only the first 72 password bytes; argon2 hashes are 32 bytes (out_len must be 32)',
            'primitives' => $primitives,
        ];
    }

    public function prepare(Request $req): Job
    {
        $row = self::TABLE[$req->primitive] ?? null;
        if ($row === null || !in_array($row[0], password_algos(), true)) {
            throw unsupported("php/password does not offer $req->primitive");
        }
        if ($req->operation !== 'hash' && $req->operation !== 'verify') {
            throw unsupported("$req->primitive/$req->operation is not offered");
        }
        $req->allowParams($row[2]);
        $pw = $req->bytes('password');
        if ($req->operation === 'verify') {
            return self::verify($req->text('encoded'), $pw, $row[1]);
        }
        $algo = $row[0];
        $options = $algo === PASSWORD_BCRYPT ? self::bcryptOptions($req) : self::argon2Options($req);
        return per_call_job(static function () use ($pw, $algo, $options): string {
            try {
                $encoded = password_hash($pw, $algo, $options);
            } catch (ValueError $e) {
                throw invalid_params($e->getMessage());
            }
            return str_starts_with($encoded, '$2y$') ? '$2b$' . substr($encoded, 4) : $encoded;
        });
    }

    private static function bcryptOptions(Request $req): array
    {
        return ['cost' => $req->int('cost', 4, 31)];
    }

    private static function argon2Options(Request $req): array
    {
        [$t, $m, $p] = [$req->int('t', 1, 0xffffffff), $req->int('m', 8, 0xffffffff), $req->int('p', 1, 0xffffff)];
        if ($req->int('out_len', 1, 0xffffffff) !== 32) {
            throw invalid_params('password_hash always makes a 32-byte argon2 hash: out_len must be 32');
        }
        if ($m < 8 * $p) {
            throw invalid_params('argon2 needs m >= 8·p KiB');
        }
        return ['time_cost' => $t, 'memory_cost' => $m, 'threads' => $p];
    }

    private static function verify(string $encoded, string $pw, array $prefixes): Job
    {
        $known = array_filter($prefixes, static fn (string $p): bool => str_starts_with($encoded, $p));
        if (!$known) {
            throw invalid_params('encoded does not start with ' . implode(' or ', $prefixes));
        }
        return per_call_job(static function () use ($encoded, $pw): string {
            if (!password_verify($pw, $encoded)) {
                throw auth_failed('password does not match');
            }
            return 'ok';
        });
    }
}
