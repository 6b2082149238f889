//go:build !linux

package main

// generatedLimit is the longest generated message this process may try to hold.
func generatedLimit() int64 { return maxGenerated }
