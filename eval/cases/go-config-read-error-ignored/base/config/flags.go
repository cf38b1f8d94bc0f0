package config

// Flags are the features switched on for this deployment.
type Flags map[string]bool

// Defaults are used when no file is given.
func Defaults() Flags {
	return Flags{"newCheckout": false}
}
