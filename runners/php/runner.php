<?php

// The PHP runner: protocol v1 over stdin/stdout (docs/protocol.md). Reads one JSON request
// per line, answers one line, never dies on a bad request, exits 0 on EOF. The roles live in
// errors.php, protocol.php, dispatch.php, registry.php, timing.php and hello.php; one lib_*.php per library.

declare(strict_types=1);

ini_set('display_errors', 'stderr');
ini_set('memory_limit', '-1');

require __DIR__ . '/errors.php';
require __DIR__ . '/limits.php';
require __DIR__ . '/protocol.php';
require __DIR__ . '/msggen.php';
require __DIR__ . '/registry.php';
require __DIR__ . '/timing.php';
require __DIR__ . '/hello.php';
require __DIR__ . '/dispatch.php';
require __DIR__ . '/leak.php';

// Library files load before the error handler below, as they always have.
$dispatcher = new Dispatcher(...libraries());

// Every warning is an exception (answered as an error), except those silenced with @.
set_error_handler(static function (int $no, string $message, string $file, int $line): bool {
    if (!(error_reporting() & $no)) {
        return false;
    }
    throw new ErrorException($message, 0, $no, $file, $line);
});

$handle = $dispatcher->handle(...);
while (($line = read_request(STDIN)) !== false) {
    $why = $line === null ? 'request line longer than ' . LINE_LIMIT . ' bytes' : line_refusal($line);
    $reply = $why === null ? answer($line, $handle) : error_reply(null, 'bad_request', $why);
    fwrite(STDOUT, encode_reply($reply) . "\n");
    fflush(STDOUT);
}
exit(0);
