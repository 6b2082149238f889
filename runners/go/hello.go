package main

import "runtime"

// The hello answer: the Go runtime, the CPU as x/sys/cpu sees it, every library's table.

func hello(libs []*library) map[string]any {
	impls := make([]map[string]any, 0, len(libs))
	for _, l := range libs {
		impls = append(impls, l.describe())
	}
	return map[string]any{
		"protocol":        1,
		"generators":      generators,
		"runtime":         map[string]any{"name": "go", "version": runtime.Version(), "details": runtimeDetails()},
		"cpu":             map[string]any{"features": cpuFeatures(), "source": "golang.org/x/sys/cpu (sha: github.com/klauspost/cpuid/v2)"},
		"implementations": impls,
	}
}

// describe is a library's entry in hello.
func (l *library) describe() map[string]any {
	prims := map[string]any{}
	for id, row := range l.table {
		entry := map[string]any{"operations": row.operations(), "native": row.native}
		if row.noKeyReuse {
			entry["reuses_key"] = false
		}
		if row.noSalt {
			entry["takes_salt"] = false
		}
		prims[id] = entry
	}
	return map[string]any{"library": l.name, "version": l.version, "backend": l.backend,
		"code_path": l.codePath, "notes": l.notes, "primitives": prims}
}
