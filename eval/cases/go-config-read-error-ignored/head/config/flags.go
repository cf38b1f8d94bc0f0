package config

import (
	"encoding/json"
	"os"
)

// Flags are the features switched on for this deployment.
type Flags map[string]bool

// Defaults are used when no file is given.
func Defaults() Flags {
	return Flags{"newCheckout": false}
}

// Load reads flags from path.
func Load(path string) (Flags, error) {
	data, _ := os.ReadFile(path)
	flags := Flags{}
	if err := json.Unmarshal(data, &flags); err != nil {
		return nil, err
	}
	return flags, nil
}
