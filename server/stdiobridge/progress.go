package stdiobridge

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingTransport notes each progress notification of the server as it
// is read, before the go-sdk queues it for its handler: the go-sdk hands
// the answer that follows to its caller at once, and the request would
// end, its token forgotten, before the progress it sent first was passed
// on (see inflight.settle).
type countingTransport struct {
	mcp.Transport
	r *relay
}

func (t countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Connection: c, r: t.r}, nil
}

type countingConn struct {
	mcp.Connection
	r *relay
}

func (c *countingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "notifications/progress" && !req.ID.IsValid() {
		var p struct {
			Token any `json:"progressToken"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if in := c.r.byProgressToken(p.Token); in != nil {
				in.arrived()
			}
		}
	}
	return m, err
}
