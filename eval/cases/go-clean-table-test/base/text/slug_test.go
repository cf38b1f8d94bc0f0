package text

import "testing"

func TestSlug(t *testing.T) {
	if got := Slug("Hello World"); got != "hello-world" {
		t.Fatalf("got %q", got)
	}
	if got := Slug("  Go  "); got != "go" {
		t.Fatalf("got %q", got)
	}
}
