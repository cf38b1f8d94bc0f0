package stats

// Entry is one access log line.
type Entry struct {
	Path   string
	Status int
}

// Errors counts entries with a 5xx status.
func Errors(entries []Entry) int {
	n := 0
	for _, e := range entries {
		if e.Status >= 500 {
			n++
		}
	}
	return n
}

// ByStatus counts entries per status code.
func ByStatus(entries []Entry) map[int]int {
	var counts map[int]int
	for _, e := range entries {
		counts[e.Status]++
	}
	return counts
}
