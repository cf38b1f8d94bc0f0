package queue

// Queue is a FIFO of jobs.
type Queue struct {
	items []string
}

// Push adds a job at the end.
func (self *Queue) Push(job string) {
	self.items = append(self.items, job)
}

// Pop removes the first job; ok is false when empty.
func (self *Queue) Pop() (job string, ok bool) {
	if len(self.items) == 0 {
		return "", false
	}
	job = self.items[0]
	self.items = self.items[1:]
	return job, true
}
