<?php

// The public-key families' jobs (docs/protocol.md, "Public-key operations"), shared by
// lib_openssl_pubkey.php and lib_sodium_pubkey.php: keygen from key_seed or at random, and
// our key parsed once per case (in every call with fresh_context). No crypto here.
// Public-key operations take tens of microseconds or more: a closure call per operation
// (per_call_job's shape) costs nothing measurable next to them.

declare(strict_types=1);

/** keygen: $make(?string $seed) returns [public, private]; the answer is their hex, joined. */
function keygen_job(Request $req, Closure $make): Job
{
    $req->allowParams([]);
    $seed = null;
    if ($req->has('key_seed')) {
        $seed = $req->bytes('key_seed');
        if (strlen($seed) !== 32) {
            throw invalid_params('key_seed is ' . strlen($seed) . ' bytes, not 32');
        }
    }
    return raw_job(static function () use ($make, $seed): string {
        [$public, $private] = $make($seed);
        return $public . $private;
    });
}

/** The named key input parsed by $load once (or in every call with fresh_context); $use($key) answers bytes. */
function keyed_job(Request $req, string $input, Closure $load, Closure $use): Job
{
    $req->allowParams([]);
    $raw = $req->bytes($input);
    if ($req->fresh()) {
        return raw_job(static fn (): string => $use($load($raw)));
    }
    $key = $load($raw);
    return raw_job(static fn (): string => $use($key));
}

/** verify: "ok", or auth_failed when $check($key, $msg, $sig) says no. */
function verify_job(Request $req, Closure $load, Closure $check): Job
{
    [$msg, $sig] = [$req->bytes('msg'), $req->bytes('signature')];
    $job = keyed_job($req, 'public_key', $load, static function ($key) use ($check, $msg, $sig): string {
        if (!$check($key, $msg, $sig)) {
            throw auth_failed('the signature does not verify');
        }
        return 'ok';
    });
    return new Job(static fn (): string => ($job->loop)(1), $job->loop);
}

/** A job over an operation answering raw bytes: the untimed call answers their hex. */
function raw_job(Closure $op): Job
{
    return new Job(static fn (): string => bin2hex($op()), static function (int $n) use ($op): mixed {
        for ($i = 0; $i < $n; ++$i) {
            $out = $op();
        }
        return $out ?? '';
    });
}
