<?php

// bench/fidelity's anchor for php/hash sha256: a plain loop around the call the PHP runner
// times (runners/php/lib_hash.php: hash('sha256', $msg, true)), hrtime(true) read around
// batches of ~10 ms, no harness. Prints the median ns per call over the batches.
//
//   php -n plain_loop.php SIZE SECONDS

declare(strict_types=1);

function batch(string $msg, int $n): int
{
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; ++$i) {
        $out = hash('sha256', $msg, true);
    }
    $ns = hrtime(true) - $t0;
    return $ns + (ord($out[0]) & 0); // keeps $out live
}

function main(int $size, float $seconds): void
{
    $msg = random_bytes($size);
    $n = 1;
    while (batch($msg, $n) < 10_000_000) {
        $n *= 2;
    }
    $perCall = [];
    $end = hrtime(true) + (int) ($seconds * 1e9);
    do {
        $perCall[] = batch($msg, $n) / $n;
    } while (hrtime(true) < $end);
    sort($perCall);
    $m = intdiv(count($perCall), 2);
    $median = count($perCall) % 2 ? $perCall[$m] : ($perCall[$m - 1] + $perCall[$m]) / 2;
    echo json_encode(['median_ns' => $median, 'batches' => count($perCall), 'iterations' => $n]), "\n";
}

main((int) ($argv[1] ?? 64), (float) ($argv[2] ?? 1));
