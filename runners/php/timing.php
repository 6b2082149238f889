<?php

// The timed batches: the only place that reads the clock (hrtime(true), monotonic, integer
// nanoseconds). No policy: no warm-up, no repetition beyond what the request asks for.

declare(strict_types=1);

/** Keeps the last output of every batch reachable, so no batch is ever dead code. */
final class Sink
{
    public static int $acc = 0;

    public static function keep(mixed $out): void
    {
        self::$acc ^= is_string($out) && $out !== '' ? ord($out[0]) : (int) (bool) $out;
    }
}

/** Runs the untimed call, then `batches` timed batches; the bench result. */
function run_bench(Job $job, int $iterations, int $batches): array
{
    $output = ($job->once)();
    $loop = $job->loop;
    $samples = [];
    for ($b = 0; $b < $batches; ++$b) {
        $t0 = hrtime(true);
        $out = $loop($iterations);
        $ns = hrtime(true) - $t0;
        Sink::keep($out);
        $samples[] = ['iterations' => $iterations, 'ns' => $ns];
    }
    return ['output' => $output, 'samples' => $samples];
}

/**
 * A job whose loop calls `$op` once per operation, `$op` being the untimed call too. For
 * operations that take milliseconds (password hashes), where a closure call costs nothing
 * measurable; fast operations write their own loop with the library call inside it.
 */
function per_call_job(Closure $op): Job
{
    return new Job($op, static function (int $n) use ($op): mixed {
        for ($i = 0; $i < $n; ++$i) {
            $out = $op();
        }
        return $out ?? '';
    });
}

/**
 * The leak request's measurements: one call of `$loops[$class]` (a Job loop of 1) per byte
 * of `$order`, each timed alone; nanoseconds, capped at 2^32 - 1.
 *
 * @param list<Closure> $loops
 * @return list<int>
 */
function time_single_calls(array $loops, string $order): array
{
    $ns = [];
    $n = strlen($order);
    for ($i = 0; $i < $n; ++$i) {
        $loop = $loops[ord($order[$i])];
        $t0 = hrtime(true);
        try {
            $out = $loop(1);
        } catch (ProtocolError) {
            $out = '';
        }
        $d = hrtime(true) - $t0;
        Sink::keep($out);
        $ns[] = $d > 0xFFFFFFFF ? 0xFFFFFFFF : $d;
    }
    return $ns;
}
