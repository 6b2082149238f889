<?php

// The protocol's error kinds (docs/protocol.md, "Errors"): the exception every file throws,
// answered as an error by answer() in protocol.php.

declare(strict_types=1);

final class ProtocolError extends Exception
{
    public function __construct(public readonly string $kind, string $message)
    {
        parent::__construct($message);
    }
}

function bad_request(string $m): ProtocolError
{
    return new ProtocolError('bad_request', $m);
}

function unsupported(string $m): ProtocolError
{
    return new ProtocolError('unsupported', $m);
}

function invalid_params(string $m): ProtocolError
{
    return new ProtocolError('invalid_params', $m);
}

function auth_failed(string $m): ProtocolError
{
    return new ProtocolError('auth_failed', $m);
}

function internal_error(string $m): ProtocolError
{
    return new ProtocolError('internal', $m);
}
