package fileio

import (
	"errors"
	"testing"
)

// TestRedact (issue 14, finding 8): user info and query strings of URLs never reach an error or a
// log line; s3:// and file:// keep '?' (a glob character in keys) and plain paths are unchanged.
func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"s3://user:pw@bucket/wh":               "s3://REDACTED@bucket/wh",
		"s3a://AKIA:se/cr@t@bucket":            "s3a://REDACTED@bucket",
		"s3://AKIA:se/cr@t@bucket/wh/a@b.csv":  "s3://REDACTED@b.csv",
		"s3://bucket/mail/a@b.csv":             "s3://bucket/mail/a@b.csv",
		"s3://bucket/in/?.csv":                 "s3://bucket/in/?.csv",
		"https://u:pw@host:9000/p?sig=SECRET":  "https://REDACTED@host:9000/p?REDACTED",
		"http://127.0.0.1:1/?token=SECRET":     "http://127.0.0.1:1/?REDACTED",
		"http://host?token=SECRET":             "http://host?REDACTED",
		"http://host/p#frag-secret":            "http://host/p#REDACTED",
		"hdfs://nn:8020/wh":                    "hdfs://nn:8020/wh",
		"/data/wh?x":                           "/data/wh?x",
		"file:///data/a@b/wh":                  "file:///data/a@b/wh",
		"relative/dir":                         "relative/dir",
		"oss://ak:sk@bucket.endpoint/wh?x=y#z": "oss://REDACTED@bucket.endpoint/wh?REDACTED",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
	msg := "list s3://u:pw@b/k: request send failed, Get \"http://127.0.0.1:1/b?list-type=2&X-Amz-Security-Token=TOKEN\": " +
		"refused; endpoint `http://ak:sk@h/?token=SECRET` invalid; s3://b/in/?.csv"
	want := "list s3://REDACTED@b/k: request send failed, Get \"http://127.0.0.1:1/b?REDACTED\": " +
		"refused; endpoint `http://REDACTED@h/?REDACTED` invalid; s3://b/in/?.csv"
	if got := RedactText(msg); got != want {
		t.Errorf("RedactText:\n got %s\nwant %s", got, want)
	}
	inner := errors.New("Get \"https://h/k?sig=SECRET\": " + ErrNotExist.Error())
	err := RedactErr(&wrapped{inner, ErrNotExist})
	if !errors.Is(err, ErrNotExist) || err.Error() != "Get \"https://h/k?REDACTED\": "+ErrNotExist.Error() {
		t.Errorf("RedactErr: %v (Is ErrNotExist: %v)", err, errors.Is(err, ErrNotExist))
	}
}

type wrapped struct{ msg, target error }

func (w *wrapped) Error() string { return w.msg.Error() }
func (w *wrapped) Unwrap() error { return w.target }
