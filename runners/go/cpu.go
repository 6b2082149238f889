package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

// What the runtime and the libraries detected, for hello. x/sys/cpu has no SHA flag, so
// SHA comes from github.com/klauspost/cpuid/v2 (which blake3 and xxh3 use to pick their code).

func cpuFeatures() map[string]bool {
	return map[string]bool{
		"aes":       cpu.X86.HasAES,
		"pclmulqdq": cpu.X86.HasPCLMULQDQ,
		"sha":       cpuid.CPU.Supports(cpuid.SHA),
		"sse4_2":    cpu.X86.HasSSE42,
		"avx2":      cpu.X86.HasAVX2,
		"avx512f":   cpu.X86.HasAVX512F,
	}
}

// join lists the names whose condition holds, or "generic Go".
func join(parts map[string]bool, order []string) string {
	var on []string
	for _, name := range order {
		if parts[name] {
			on = append(on, name)
		}
	}
	if len(on) == 0 {
		return "generic Go"
	}
	return strings.Join(on, ", ")
}

// stdlibCodePath mirrors the conditions of the amd64 code in crypto/sha1, crypto/sha256,
// crypto/sha512, crypto/aes and hash/crc32 of this Go version.
func stdlibCodePath() string {
	if runtime.GOARCH != "amd64" {
		return runtime.GOARCH + " (not itemised)"
	}
	x := cpu.X86
	// internal/cpu honours GODEBUG=cpu.sha=off and cpu.vpclmulqdq=off (--cpu-features);
	// cpuid and x/sys/cpu do not know these two names, so the mirror reads them here.
	shaNI := x.HasAVX && cpuid.CPU.Supports(cpuid.SHA) && x.HasSSE41 && x.HasSSSE3 && !godebugOff("sha")
	parts := map[string]bool{
		"AES-NI (AES)":                        x.HasAES,
		"AES-NI+PCLMULQDQ (GCM)":              x.HasAES && x.HasPCLMULQDQ,
		"SHA-NI (SHA-1, SHA-256)":             shaNI,
		"AVX2 (SHA-1, SHA-256)":               !shaNI && x.HasAVX2 && x.HasBMI2,
		"AVX2 (SHA-512)":                      x.HasAVX && x.HasAVX2 && x.HasBMI2,
		"SSE4.2 (CRC-32C)":                    x.HasSSE42,
		"PCLMULQDQ (CRC-32)":                  x.HasPCLMULQDQ && x.HasSSE41,
		"AVX-512 VPCLMULQDQ (CRC-32 ≥ 1 KiB)": x.HasPCLMULQDQ && x.HasSSE41 && x.HasAVX512VPCLMULQDQ && !godebugOff("vpclmulqdq"),
	}
	return join(parts, []string{"AES-NI (AES)", "AES-NI+PCLMULQDQ (GCM)", "SHA-NI (SHA-1, SHA-256)",
		"AVX2 (SHA-1, SHA-256)", "AVX2 (SHA-512)", "SSE4.2 (CRC-32C)", "PCLMULQDQ (CRC-32)", "AVX-512 VPCLMULQDQ (CRC-32 ≥ 1 KiB)"})
}

// xcryptoCodePath mirrors the amd64 dispatch of x/crypto's blake2b, blake2s,
// chacha20poly1305 and argon2 packages.
func xcryptoCodePath() string {
	x := cpu.X86
	return strings.Join([]string{
		"BLAKE2b " + first(x.HasAVX2, "AVX2", x.HasAVX, "AVX", x.HasSSE41, "SSE4.1"),
		"BLAKE2s " + first(x.HasSSE41, "SSE4.1", x.HasSSSE3, "SSSE3", x.HasSSE2, "SSE2"),
		"ChaCha20-Poly1305 " + first(x.HasSSSE3 && x.HasAVX2 && x.HasBMI2, "AVX2 assembly"),
		"Argon2 " + first(x.HasSSE41, "SSE4.1"),
	}, ", ")
}

// first returns the name after the first true condition: first(c1, "a", c2, "b", …).
func first(pairs ...any) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i].(bool) {
			return pairs[i+1].(string)
		}
	}
	return "generic Go"
}

// blake3CodePath and xxh3CodePath repeat the checks those packages make with cpuid.
func blake3CodePath() string {
	return join(map[string]bool{"AVX-512": cpuid.CPU.Supports(cpuid.AVX512F),
		"AVX2": !cpuid.CPU.Supports(cpuid.AVX512F) && cpuid.CPU.Supports(cpuid.AVX2)},
		[]string{"AVX-512", "AVX2"})
}

func xxh3CodePath() string {
	return join(map[string]bool{"AVX-512": cpuid.CPU.Has(cpuid.AVX512F),
		"AVX2": !cpuid.CPU.Has(cpuid.AVX512F) && cpuid.CPU.Has(cpuid.AVX2), "SSE2": true},
		[]string{"AVX-512", "AVX2", "SSE2"})
}

// moduleVersion reads a dependency's version from the binary's build info.
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				return strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	return "unknown"
}

// runtimeDetails reports the build settings that change the generated code.
func runtimeDetails() map[string]string {
	details := map[string]string{"GOARCH": runtime.GOARCH, "GOOS": runtime.GOOS}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if strings.HasPrefix(s.Key, "GOAMD64") || s.Key == "CGO_ENABLED" || s.Key == "-gcflags" {
				details[s.Key] = s.Value
			}
		}
	}
	return details
}

// godebugOff reports whether GODEBUG switches the CPU feature off (cpu.NAME=off).
func godebugOff(name string) bool {
	for _, field := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if field == "cpu."+name+"=off" {
			return true
		}
	}
	return false
}

// zeeboBlake3CodePath repeats github.com/zeebo/blake3's own check (internal/consts/cpu.go).
func zeeboBlake3CodePath() string {
	return join(map[string]bool{"AVX2": cpuid.CPU.Has(cpuid.AVX2),
		"SSE4.1": !cpuid.CPU.Has(cpuid.AVX2) && cpuid.CPU.Has(cpuid.SSE4), "pure Go": !cpuid.CPU.Has(cpuid.SSE4)},
		[]string{"AVX2", "SSE4.1", "pure Go"})
}
