<?php

// Protocol v1 plumbing shared by every library file (docs/protocol.md): the request with typed
// accessors for inputs and params, nonce counters (error kinds: errors.php). No crypto and no
// clock here.

declare(strict_types=1);

/** A compute/bench request after the framing checks; typed access to inputs and params. */
final class Request
{
    private const HEX_DIGITS = '0123456789abcdefABCDEF';

    public function __construct(
        public readonly string $primitive,
        public readonly string $operation,
        private readonly array $inputs,
        private readonly array $params,
        private readonly bool $bench,
    ) {
    }

    public function bytes(string $name): string
    {
        $v = $this->inputs[$name] ?? null;
        if ($name === 'msg' && $v instanceof stdClass) {
            return msggen_expand((array) $v);
        }
        // strspn, not a regex: PCRE's backtrack limit fails on megabyte inputs.
        if (!is_string($v) || strlen($v) % 2 !== 0 || strspn($v, self::HEX_DIGITS) !== strlen($v)) {
            throw bad_request("input $name must be a hex string");
        }
        return (string) hex2bin($v);
    }

    /** Whether an optional input (keygen's key_seed) was sent. */
    public function has(string $name): bool
    {
        return array_key_exists($name, $this->inputs);
    }

    /** The AAD: absent means empty; its length is the AAD length (protocol.md, "One meaning for aad"). */
    public function aadBytes(): string
    {
        return array_key_exists('aad', $this->inputs) ? $this->bytes('aad') : '';
    }

    /** aad_len is optional and only labels the case: checked for type, never against the aad. */
    public function aadLenLabel(): void
    {
        if (array_key_exists('aad_len', $this->params)) {
            $this->int('aad_len', 0, PHP_INT_MAX);
        }
    }

    public function text(string $name): string
    {
        $v = $this->inputs[$name] ?? null;
        if (!is_string($v)) {
            throw bad_request("input $name must be a string");
        }
        return $v;
    }

    /** Rejects every param that is not in $names (fresh_context is always accepted). */
    public function allowParams(array $names): void
    {
        foreach (array_keys($this->params) as $key) {
            if ($key !== 'fresh_context' && !in_array($key, $names, true)) {
                throw invalid_params("parameter $key is not understood for $this->primitive");
            }
        }
    }

    public function int(string $name, int $min, int $max): int
    {
        if (!array_key_exists($name, $this->params)) {
            throw bad_request("parameter $name is missing");
        }
        $v = $this->params[$name];
        if (!is_int($v)) {
            throw is_string($v) && ctype_digits($v)
                ? invalid_params("$name = $v is out of range")
                : bad_request("parameter $name must be an integer");
        }
        if ($v < $min || $v > $max) {
            throw invalid_params("$name = $v is outside $min..$max");
        }
        return $v;
    }

    /** An unsigned 64-bit parameter as PHP's signed int (two's complement). */
    public function u64(string $name): int
    {
        $v = $this->params[$name] ?? null;
        if (is_string($v) && ctype_digits($v) && strlen($v) <= 20) {
            return decimal_to_u64($v, $name);
        }
        return $this->int($name, 0, PHP_INT_MAX);
    }

    public function fresh(): bool
    {
        $v = $this->params['fresh_context'] ?? false;
        if (!is_bool($v)) {
            throw bad_request('parameter fresh_context must be a boolean');
        }
        return $v;
    }

    /** For reuses_key: false primitives only fresh_context = true is timed (compute ignores it). */
    public function requireFresh(): void
    {
        if (!$this->fresh() && $this->bench) {
            throw unsupported("$this->primitive: the API has no reusable key or context; only fresh_context=true");
        }
    }
}

function ctype_digits(string $s): bool
{
    return preg_match('/\A[0-9]+\z/', $s) === 1;
}

/** "18446744073709551615" → -1: a decimal up to 2^64-1 as the same 64 bits in a PHP int. */
function decimal_to_u64(string $s, string $name): int
{
    [$hi, $lo] = [0, 0];
    foreach (str_split($s) as $digit) {
        $lo = $lo * 10 + (int) $digit;
        $hi = $hi * 10 + ($lo >> 32);
        $lo &= 0xffffffff;
        if ($hi > 0xffffffff) {
            throw invalid_params("$name = $s is above 2^64-1");
        }
    }
    return ($hi << 32) | $lo;
}

/** Splits a nonce into its head and the big-endian counter held in its last 4 bytes. */
function nonce_counter(string $nonce): array
{
    if (strlen($nonce) < 4) {
        throw invalid_params('nonce is shorter than its 4-byte counter');
    }
    return [substr($nonce, 0, -4), unpack('N', substr($nonce, -4))[1]];
}

/** One request line → one response; `$handle` answers a decoded request. Never throws. */
function answer(string $line, Closure $handle): array
{
    $id = null;
    try {
        // json_decode counts the values inside the innermost array as one more level
        $req = json_decode($line, false, DEPTH_LIMIT + 1, JSON_BIGINT_AS_STRING);
        if (!$req instanceof stdClass) {
            throw bad_request(json_last_error() ? 'not JSON: ' . json_last_error_msg() : 'not a JSON object');
        }
        $id = isset($req->id) && is_int($req->id) ? $req->id : null;
        if ($id === null) {
            throw bad_request('id must be an integer');
        }
        return ['id' => $id, 'ok' => true, 'result' => $handle($req)];
    } catch (ProtocolError $e) {
        return error_reply($id, $e->kind, $e->getMessage());
    } catch (ValueError | SodiumException $e) {
        return error_reply($id, 'invalid_params', $e->getMessage());
    } catch (Throwable $e) {
        return error_reply($id, 'internal', get_class($e) . ': ' . $e->getMessage());
    }
}

function error_reply(?int $id, string $kind, string $message): array
{
    return ['id' => $id, 'ok' => false, 'error' => ['kind' => $kind, 'message' => $message]];
}

/** A response as one JSON line (without the newline). */
function encode_reply(array $response): string
{
    $flags = JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION;
    $json = json_encode($response, $flags);
    if ($json === false) {
        $error = error_reply($response['id'] ?? null, 'internal', json_last_error_msg());
        $json = (string) json_encode($error, $flags);
    }
    return $json;
}
