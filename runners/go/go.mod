module cryptobench/runners/go

go 1.26.0

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/klauspost/cpuid/v2 v2.2.10
	github.com/zeebo/xxh3 v1.1.0
	golang.org/x/crypto v0.58.0
	golang.org/x/sys v0.49.0
	lukechampine.com/blake3 v1.4.1
)
