<?php

// The PHP runner: protocol v1 over stdin/stdout (docs/protocol.md). Reads one JSON request
// per line, answers one line, never dies on a bad request, exits 0 on EOF.

declare(strict_types=1);

ini_set('display_errors', 'stderr');
ini_set('memory_limit', '-1');

require __DIR__ . '/protocol.php';
require __DIR__ . '/lib_hash.php';
require __DIR__ . '/lib_openssl.php';
require __DIR__ . '/lib_sodium.php';
require __DIR__ . '/lib_password.php';

// Every warning is an exception (answered as an error), except those silenced with @.
set_error_handler(static function (int $no, string $message, string $file, int $line): bool {
    if (!(error_reporting() & $no)) {
        return false;
    }
    throw new ErrorException($message, 0, $no, $file, $line);
});

final class Runner
{
    /** @var array<string, Library> */
    private array $libs = [];

    public function __construct(Library ...$libs)
    {
        foreach ($libs as $lib) {
            $this->libs[$lib->name()] = $lib;
        }
    }

    public function serve(): void
    {
        while (($line = fgets(STDIN)) !== false) {
            $line = rtrim($line, "\r\n");
            if ($line !== '') {
                fwrite(STDOUT, self::encode($this->answer($line)) . "\n");
                fflush(STDOUT);
            }
        }
    }

    private function answer(string $line): array
    {
        $id = null;
        try {
            $req = json_decode($line, false, 512, JSON_BIGINT_AS_STRING);
            if (!$req instanceof stdClass) {
                throw bad_request(json_last_error() ? 'not JSON: ' . json_last_error_msg() : 'not a JSON object');
            }
            $id = isset($req->id) && is_int($req->id) ? $req->id : null;
            if ($id === null) {
                throw bad_request('id must be an integer');
            }
            return ['id' => $id, 'ok' => true, 'result' => $this->dispatch($req)];
        } catch (ProtocolError $e) {
            return self::error($id, $e->kind, $e->getMessage());
        } catch (ValueError | SodiumException $e) {
            return self::error($id, 'invalid_params', $e->getMessage());
        } catch (Throwable $e) {
            return self::error($id, 'internal', get_class($e) . ': ' . $e->getMessage());
        }
    }

    private function dispatch(stdClass $req): array
    {
        return match ($req->op ?? null) {
            'hello' => $this->hello(),
            'compute' => ['output' => ($this->job($req)->once)()],
            'bench' => run_bench($this->job($req), self::positive($req, 'iterations'), self::positive($req, 'batches')),
            default => throw bad_request('op must be hello, compute or bench'),
        };
    }

    private function job(stdClass $req): Job
    {
        foreach (['primitive', 'operation'] as $field) {
            if (!is_string($req->$field ?? null)) {
                throw bad_request("$field must be a string");
            }
        }
        foreach (['inputs', 'params'] as $field) {
            if (!($req->$field ?? null) instanceof stdClass) {
                throw bad_request("$field must be an object");
            }
        }
        $impl = $req->impl ?? null;
        if ($impl !== null && !is_string($impl)) {
            throw bad_request('impl must be a string');
        }
        $inputs = get_object_vars($req->inputs);
        $params = get_object_vars($req->params);
        $request = new Request($req->primitive, $req->operation, $inputs, $params, $req->op === 'bench');
        if ($impl !== null && !isset($this->libs[$impl])) {
            throw unsupported("php has no implementation $impl (" . implode(', ', array_keys($this->libs)) . ')');
        }
        if ($req->primitive === 'noop' && $req->operation === 'digest') {
            return self::noop($request);
        }
        if ($impl === null) {
            throw bad_request('impl is missing');
        }
        return $this->libs[$impl]->prepare($request);
    }

    /** The empty operation: one internal call returning 8 bytes, through the same loop shape. */
    private static function noop(Request $req): Job
    {
        $req->allowParams([]);
        $msg = $req->bytes('msg');
        return new Job(
            static fn (): string => bin2hex(pack('J', strlen($msg))),
            static function (int $n) use ($msg): int {
                $t0 = hrtime(true);
                for ($i = 0; $i < $n; ++$i) {
                    $out = pack('J', strlen($msg));
                }
                $ns = hrtime(true) - $t0;
                Sink::keep($out ?? '');
                return $ns;
            },
        );
    }

    private static function positive(stdClass $req, string $field): int
    {
        $v = $req->$field ?? null;
        if (!is_int($v) || $v < 1) {
            throw bad_request("$field must be a positive integer");
        }
        return $v;
    }

    private function hello(): array
    {
        $opcache = function_exists('opcache_get_status') && (bool) ini_get('opcache.enable_cli');
        return [
            'protocol' => 1,
            'runtime' => [
                'name' => 'php',
                'version' => PHP_VERSION,
                'details' => [
                    'sapi' => PHP_SAPI,
                    'zts' => PHP_ZTS === 1,
                    'opcache' => $opcache,
                    'jit' => $opcache ? (string) ini_get('opcache.jit') : 'off',
                ],
            ],
            'cpu' => self::cpu(),
            'implementations' => array_values(array_map(static fn (Library $l): array => $l->describe(), $this->libs)),
        ];
    }

    /** PHP detects no CPU features itself: the kernel's flags, named as in the protocol. */
    private static function cpu(): array
    {
        $info = @file_get_contents('/proc/cpuinfo');
        $flags = preg_match('/^flags\s*:\s*(.*)$/m', (string) $info, $m) ? explode(' ', $m[1]) : [];
        $features = [];
        $names = ['aes', 'pclmulqdq', 'sha' => 'sha_ni', 'sse4_2', 'avx2', 'avx512f', 'vaes', 'vpclmulqdq'];
        foreach ($names as $name => $flag) {
            $features[is_int($name) ? $flag : $name] = in_array($flag, $flags, true);
        }
        $source = $flags ? '/proc/cpuinfo (PHP has no CPU detection API)' : 'unknown';
        return ['features' => $features, 'source' => $source];
    }

    private static function error(?int $id, string $kind, string $message): array
    {
        return ['id' => $id, 'ok' => false, 'error' => ['kind' => $kind, 'message' => $message]];
    }

    private static function encode(array $response): string
    {
        $flags = JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION;
        $json = json_encode($response, $flags);
        if ($json === false) {
            $error = self::error($response['id'] ?? null, 'internal', json_last_error_msg());
            $json = (string) json_encode($error, $flags);
        }
        return $json;
    }
}

(new Runner(new HashLib(), new OpensslLib(), new SodiumLib(), new PasswordLib()))->serve();
exit(0);
