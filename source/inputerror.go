package source

// InputError marks an error caused by the input data (a file, row or value at fault), as opposed
// to the table, the store or the machine. The loader wraps what planning, opening and reading the
// input fail with in it; job re-exports it as job.InputError, the error its callers test for.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }
