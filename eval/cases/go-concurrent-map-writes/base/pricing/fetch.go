package pricing

// Source returns the price of one product.
type Source func(id string) float64

// All fetches every price, one after the other.
func All(ids []string, price Source) map[string]float64 {
	out := make(map[string]float64, len(ids))
	for _, id := range ids {
		out[id] = price(id)
	}
	return out
}
