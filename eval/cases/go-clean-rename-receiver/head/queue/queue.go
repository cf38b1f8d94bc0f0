package queue

// Queue is a FIFO of jobs.
type Queue struct {
	items []string
}

// Push adds a job at the end.
func (q *Queue) Push(job string) {
	q.items = append(q.items, job)
}

// Pop removes the first job; ok is false when empty.
func (q *Queue) Pop() (job string, ok bool) {
	if len(q.items) == 0 {
		return "", false
	}
	job = q.items[0]
	q.items = q.items[1:]
	return job, true
}
