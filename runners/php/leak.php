<?php

// The leak request (docs/protocol.md): two classes of inputs prepared before timing, single
// calls timed one by one (time_single_calls in timing.php) in the order the orchestrator
// sends. No policy.

declare(strict_types=1);

/**
 * The language's equality (`===` on strings: length, then memcmp) and its constant-time
 * counterpart (hash_equals); output 01 equal, 00 differ.
 */
function leak_control(string $primitive, array $inputs): Job
{
    foreach (['a', 'b'] as $name) {
        if (!is_string($inputs[$name] ?? null) || preg_match('/^(?:[0-9a-f]{2})*$/D', $inputs[$name]) !== 1) {
            throw bad_request("input $name must be hex");
        }
    }
    $a = (string) hex2bin($inputs['a']);
    $b = (string) hex2bin($inputs['b']);
    $op = $primitive === 'equal'
        ? static fn (): string => $a === $b ? "\x01" : "\x00"
        : static fn (): string => hash_equals($a, $b) ? "\x01" : "\x00";
    return new Job(static fn (): string => bin2hex($op()), static fn (int $n): string => $op());
}

/** @param Closure(stdClass): Job $jobFor the dispatcher's job for a bench request */
function run_leak(Closure $jobFor, stdClass $req): array
{
    $order = is_string($req->order ?? null) ? base64_decode($req->order, true) : false;
    if ($order === false || $order === '' || strspn($order, "\x00\x01") !== strlen($order)) {
        throw bad_request('order must be base64 of classes 0 and 1');
    }
    $classes = $req->classes ?? null;
    $objects = is_array($classes) && count($classes) === 2
        && $classes[0] instanceof stdClass && $classes[1] instanceof stdClass;
    if (!$objects) {
        throw bad_request('classes must be a list of two objects');
    }
    $shared = ($req->inputs ?? null) instanceof stdClass ? get_object_vars($req->inputs) : [];
    $control = in_array($req->primitive ?? null, ['equal', 'equal-ct'], true);
    $jobs = [];
    $outcomes = [];
    foreach ($classes as $over) {
        $merged = array_merge($shared, get_object_vars($over));
        if ($control) {
            $job = leak_control($req->primitive, $merged);
        } else {
            $sub = clone $req;
            $sub->op = 'bench';
            $sub->inputs = (object) $merged;
            $job = $jobFor($sub);
        }
        try {
            $outcomes[] = ($job->once)();
        } catch (ProtocolError $e) {
            if ($e->kind !== 'auth_failed') {
                throw $e;
            }
            $outcomes[] = 'auth_failed';
        }
        $jobs[] = $job->loop;
    }
    $ns = time_single_calls($jobs, $order);
    return ['outcomes' => $outcomes, 'ns' => base64_encode(pack('V*', ...$ns)), 'clock' => 'hrtime(true)'];
}
