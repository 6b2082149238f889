<?php

// The hello answer (docs/protocol.md): the PHP runtime, the CPU as the kernel reports it, and
// every library's hello entry.

declare(strict_types=1);

/** @param list<Library> $libs */
function hello(array $libs): array
{
    $opcache = function_exists('opcache_get_status') && (bool) ini_get('opcache.enable_cli');
    return [
        'protocol' => 1,
        'generators' => GENERATORS,
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
        'cpu' => hello_cpu(),
        'implementations' => array_values(array_map(static fn (Library $l): array => $l->describe(), $libs)),
    ];
}

/** PHP detects no CPU features itself: the kernel's flags, named as in the protocol. */
function hello_cpu(): array
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
