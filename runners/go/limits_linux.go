package main

import "syscall"

// generatedLimit is the longest generated message this process may try to hold: maxGenerated,
// and never more than the machine's memory (Go's runtime ends the process, with no error to
// recover from, when an allocation cannot be satisfied).
func generatedLimit() int64 {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) == nil {
		if ram := int64(info.Totalram) * int64(info.Unit); ram > 0 && ram < maxGenerated {
			return ram
		}
	}
	return maxGenerated
}
