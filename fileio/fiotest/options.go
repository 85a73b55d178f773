package fiotest

// Options relaxes the spec for backends whose namespace is not a tree.
type Options struct {
	// FlatNamespace marks object stores, where "a" and "a/b" are independent keys: the checks that
	// a file blocks a directory of the same name (and vice versa) are skipped. Every other check,
	// directory listing, Stat of a prefix and Delete of a non-empty prefix included, still runs.
	FlatNamespace bool
}
