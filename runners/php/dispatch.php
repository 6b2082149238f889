<?php

// Request → library call: hello, compute and bench over the hosted libraries
// (docs/protocol.md). The libraries' calls live in lib_*.php, the clock in timing.php.

declare(strict_types=1);

final class Dispatcher
{
    /** @var array<string, Library> */
    private array $libs = [];

    public function __construct(Library ...$libs)
    {
        foreach ($libs as $lib) {
            $this->libs[$lib->name()] = $lib;
        }
    }

    public function handle(stdClass $req): array
    {
        return match ($req->op ?? null) {
            'hello' => hello(array_values($this->libs)),
            'compute' => ['output' => ($this->job($req)->once)()],
            'bench' => run_bench(
                $this->job($req),
                self::positive($req, 'iterations', MAX_ITERATIONS),
                self::positive($req, 'batches', MAX_BATCHES),
            ),
            'leak' => run_leak($this->job(...), $req),
            default => throw bad_request('op must be hello, compute, bench or leak'),
        };
    }

    public function job(stdClass $req): Job
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
            static function (int $n) use ($msg): mixed {
                for ($i = 0; $i < $n; ++$i) {
                    $out = pack('J', strlen($msg));
                }
                return $out ?? '';
            },
        );
    }

    private static function positive(stdClass $req, string $field, int $max): int
    {
        $v = $req->$field ?? null;
        if (!is_int($v) || $v < 1) {
            throw bad_request("$field must be a positive integer");
        }
        if ($v > $max) {
            throw invalid_params("$field must be at most $max");
        }
        return $v;
    }
}
