<?php

// Request limits (docs/protocol.md, "Limits"): a line too long, too deeply nested or empty is
// answered bad_request before it is decoded; the largest sizes a request may ask for.

declare(strict_types=1);

const LINE_LIMIT = 192 << 20; // bytes before the newline
const DEPTH_LIMIT = 64; // arrays and objects, the request object included
const MAX_GENERATED = 1 << 40;
const MAX_ITERATIONS = 1 << 40;
const MAX_BATCHES = 1 << 16;

/**
 * The next line without its newline, false at EOF, or null for a line over LINE_LIMIT (read to
 * its end without being kept).
 *
 * @param resource $in
 */
function read_request($in): string|false|null
{
    $line = fgets($in, LINE_LIMIT + 2);
    if ($line === false) {
        return false;
    }
    if (str_ends_with($line, "\n")) {
        return substr($line, 0, -1);
    }
    if (strlen($line) <= LINE_LIMIT) {
        return $line; // the last line, without a newline
    }
    do {
        $rest = fgets($in, 1 << 20);
    } while ($rest !== false && !str_ends_with($rest, "\n"));
    return null;
}

/** Why a line is refused before decoding (empty), or null; json_decode checks the rest. */
function line_refusal(string $line): ?string
{
    return trim($line, " \t\r") === '' ? 'empty request line' : null;
}
