package text

import "strings"

// Slug lower-cases s and joins its words with dashes.
func Slug(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), "-")
}
