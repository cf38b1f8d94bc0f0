package pricing

import "sync"

// Source returns the price of one product.
type Source func(id string) float64

// All fetches every price concurrently.
func All(ids []string, price Source) map[string]float64 {
	out := make(map[string]float64, len(ids))
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			out[id] = price(id)
		}(id)
	}
	wg.Wait()
	return out
}
