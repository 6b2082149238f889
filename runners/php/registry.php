<?php

// What a library file provides (a Library and the Jobs it prepares), and the library files
// this runner hosts (docs/adding-a-runner.md). No crypto and no clock here.

declare(strict_types=1);

/** One library file: a name for `impl`, its hello entry, and jobs built from its table. */
interface Library
{
    public function name(): string;

    /** The hello `implementations` entry (library, version, backend, primitives, …). */
    public function describe(): array;

    /** Validates the request and sets up everything the timed loop needs. */
    public function prepare(Request $req): Job;
}

/**
 * A prepared operation. `once()` is the untimed call and returns the protocol output
 * (hex string, encoded string or "ok"); `loop(n)` runs n operations and returns the last
 * output. timing.php reads the clock around each `loop(n)`: the library's own call sits
 * in the loop, with no closure call per operation.
 */
final class Job
{
    public function __construct(public readonly Closure $once, public readonly Closure $loop)
    {
    }
}

/** Library file → the Library class it defines, in the order hello lists them. */
const LIBRARY_FILES = [
    'lib_hash.php' => 'HashLib',
    'lib_openssl.php' => 'OpensslLib',
    'lib_sodium.php' => 'SodiumLib',
    'lib_password.php' => 'PasswordLib',
];

/** @return list<Library> */
function libraries(): array
{
    $libs = [];
    foreach (LIBRARY_FILES as $file => $class) {
        require_once __DIR__ . '/' . $file;
        $libs[] = new $class();
    }
    return $libs;
}
