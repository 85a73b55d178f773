package killsoak

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// How the commit proxy treats the one commit request it was armed for: the child is killed while
// the request is held, then the proxy finishes with the request as the mode says, before the next
// run starts.
const (
	holdDropped = "request-dropped" // the request never reaches the server (died with the client)
	holdLate    = "request-late"    // the server receives it only after the client died, and acts on it
	holdAnswer  = "request-acted"   // the server acted on it; the client dies before the answer arrives
)

// commitProxy stands between the children and the REST catalog server: every request is forwarded,
// except that the first commit request (POST …/commit) after arm is held, so that the harness can
// kill the child inside its commit request.
type commitProxy struct {
	target string // the server's base URL, with a trailing slash
	rp     *httputil.ReverseProxy
	srv    *httptest.Server

	mu    sync.Mutex
	armed string           // mode of the next commit request; "" forwards it
	held  chan *heldCommit // the held request (capacity 1, sent under mu)

	commits   atomic.Int64 // commit requests the children sent
	forwarded atomic.Int64 // commit requests the server received
	late      atomic.Int64 // of which after the child that sent it was dead (holdLate)
}

// heldCommit is a commit request the proxy holds for the harness.
type heldCommit struct {
	mode    string
	release chan struct{} // closed by the harness once the child is dead (or will never be killed)
	done    chan struct{} // closed by the proxy once it has finished with the request
}

func newCommitProxy(t *testing.T, target string) *commitProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &commitProxy{target: target, rp: httputil.NewSingleHostReverseProxy(u), held: make(chan *heldCommit, 1)}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

// URI is the proxy's base URL, for --catalog-uri.
func (p *commitProxy) URI() string { return p.srv.URL + "/" }

func (p *commitProxy) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/commit") {
		p.rp.ServeHTTP(w, r)
		return
	}
	p.commits.Add(1)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client died while sending: nothing reaches the server
	}
	p.mu.Lock()
	mode := p.armed
	p.armed = ""
	var h *heldCommit
	if mode != "" {
		h = &heldCommit{mode: mode, release: make(chan struct{}), done: make(chan struct{})}
		if mode == holdAnswer {
			p.forwarded.Add(1)
			if _, _, err := p.forward(r, body); err != nil {
				h.mode = holdDropped // the server was not reached: as if dropped
			}
		}
		p.held <- h
	}
	p.mu.Unlock()
	if h == nil {
		p.forwarded.Add(1)
		status, answer, err := p.forward(r, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(answer)
		return
	}
	defer close(h.done)
	<-h.release
	if h.mode == holdLate {
		p.forwarded.Add(1)
		p.late.Add(1)
		_, _, _ = p.forward(r, body)
	}
	// The client is dead: no answer is written, the connection goes with the handler.
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
		}
	}
}

// forward sends the commit request to the server on a context of its own: the server acts on it
// whether or not the client that sent it is still alive.
func (p *commitProxy) forward(r *http.Request, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), r.Method, strings.TrimSuffix(p.target, "/")+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// arm makes the proxy hold the next commit request in mode ("" disarms).
func (p *commitProxy) arm(mode string) {
	p.mu.Lock()
	p.armed = mode
	p.mu.Unlock()
}

// settle disarms the proxy and finishes with a request still held (its child is dead), so that
// nothing the last child sent reaches the server once the next run has started.
func (p *commitProxy) settle() {
	p.mu.Lock()
	p.armed = ""
	var h *heldCommit
	select {
	case h = <-p.held:
	default:
	}
	p.mu.Unlock()
	if h != nil {
		close(h.release)
		<-h.done
	}
}
