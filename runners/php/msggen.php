<?php

// Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB
// block, repeated to the length. Not a cryptographic primitive: the same bytes in every runner.
// PHP integers are signed 64-bit: `<<` wraps, `>>` is arithmetic (so it is masked), and the
// constant above PHP_INT_MAX is written with its top bit set through PHP_INT_MIN.

declare(strict_types=1);

const GENERATORS = ['xorshift64'];

function msggen_block(int $seed): string
{
    $x = $seed ^ (0x1E3779B97F4A7C15 | PHP_INT_MIN);
    $words = [];
    for ($i = 0; $i < 8192; $i++) {
        $x ^= $x << 13;
        $x ^= ($x >> 7) & 0x01FFFFFFFFFFFFFF;
        $x ^= $x << 17;
        $words[] = pack('P', $x);
    }
    return implode('', $words);
}

/** The message a generator object describes. */
function msggen_expand(array $spec): string
{
    $seed = $spec['seed'] ?? null;
    $length = $spec['length'] ?? null;
    if (($spec['generator'] ?? null) !== 'xorshift64') {
        throw bad_request('unknown generator; valid: xorshift64');
    }
    if (!is_int($seed) || $seed < 0 || $seed > 4294967295) {
        throw bad_request('generator seed must be an integer in 0..4294967295');
    }
    if (!is_int($length) || $length < 0) {
        throw bad_request('generator length must be an integer >= 0');
    }
    if ($length > MAX_GENERATED) {
        throw invalid_params('a generated message is at most ' . MAX_GENERATED . ' bytes');
    }
    $block = msggen_block($seed);
    // appended in place: one copy of the message, not two
    $msg = str_repeat($block, intdiv($length, 65536));
    $msg .= substr($block, 0, $length % 65536);
    return $msg;
}
