package toolfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolsearch/toolsearch/internal/fastjson"
	"github.com/toolsearch/toolsearch/internal/jsonstream"
	"github.com/toolsearch/toolsearch/loader/schema"
)

// DecodeTools decodes MCP tool definitions from a JSON array of tools or an
// object with a "tools" array (a tools/list result). Schemas are kept as the
// JSON written, white space aside, so that what is served and measured is
// what the file says. Tools are decoded one at a time, so that a large
// catalog is never held twice over.
func DecodeTools(data []byte) ([]*mcp.Tool, error) {
	return ReadTools(bytes.NewReader(data))
}

// ReadTools is DecodeTools for JSON read from r as it comes.
func ReadTools(r io.Reader) ([]*mcp.Tool, error) {
	jr := jsonstream.NewReader(r)
	if err := openToolsArray(jr); err != nil {
		return nil, err
	}
	tools, err := decodeToolsParallel(jr, func(t *toolJSON, pack *schemaPacker) *mcp.Tool {
		def := t.Tool
		if schema.Missing(t.InputSchema) {
			def.InputSchema = schema.Default()
		} else {
			def.InputSchema = pack.compactDecoded(t.InputSchema)
		}
		if len(t.OutputSchema) > 0 {
			def.OutputSchema = pack.compactDecoded(t.OutputSchema)
		}
		return &def
	})
	if err != nil {
		return nil, err
	}
	for i, t := range tools {
		if t == nil { // a tool without a name, which LoadToolsFile reports
			tools[i] = &mcp.Tool{InputSchema: schema.Default()}
		}
	}
	if tools == nil {
		tools = []*mcp.Tool{}
	}
	return tools, nil
}

// ReadListedTools reads the JSON array of tools at r's position (or null)
// as a server listed them: schemas are kept as the JSON written, white space
// aside, packed by p as PackSchemas packs them (by a packer of its own when p
// is nil; a listing read a page at a time shares one), and never decoded
// into maps; a missing or null schema is nil, and so is a null tool.
func ReadListedTools(r *jsonstream.Reader, p *SchemaPacker) ([]*mcp.Tool, error) {
	if null, err := r.Null(); err != nil || null {
		return nil, err
	}
	if r.Expect('[') != nil {
		return nil, errors.New("want a JSON array of tools")
	}
	packed := func(raw json.RawMessage, pack *schemaPacker) any {
		if len(raw) == 0 || string(raw) == "null" {
			return nil
		}
		return pack.compactDecoded(raw)
	}
	keep := func(t *toolJSON, pack *schemaPacker) *mcp.Tool {
		def := t.Tool
		def.InputSchema, def.OutputSchema = packed(t.InputSchema, pack), packed(t.OutputSchema, pack)
		return &def
	}
	if p == nil {
		return decodeToolsParallel(r, keep)
	}
	return decodeToolArray(r, &p.p, keep)
}

// decodeToolArray decodes the tools of an array whose opening bracket r has
// read, one at a time, up to and including its closing bracket; make turns
// each into the tool kept, packing its schemas with pack. A null element is
// a nil tool.
func decodeToolArray(r *jsonstream.Reader, pack *schemaPacker, make func(*toolJSON, *schemaPacker) *mcp.Tool) ([]*mcp.Tool, error) {
	var (
		tools []*mcp.Tool
		t     toolJSON
		raw   []byte
	)
	for i := 0; ; i++ {
		var err error
		switch raw, err = nextTool(r, i, raw[:0]); {
		case err != nil:
			return nil, err
		case raw == nil:
			return tools, nil
		}
		tool, err := t.decode(raw, pack, make)
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %v", i, err)
		}
		tools = append(tools, tool)
	}
}

// nextTool appends the JSON of the array's tool i to dst, or reads the end
// of the array and returns nil.
func nextTool(r *jsonstream.Reader, i int, dst []byte) ([]byte, error) {
	more, err := r.More(']', i)
	if err != nil {
		return nil, fmt.Errorf("tools[%d]: want another tool or the end of the array: %v", i, err)
	}
	if !more {
		return nil, nil
	}
	if dst, err = r.Value(dst); err != nil {
		return nil, fmt.Errorf("tools[%d]: %v", i, err)
	}
	return dst, nil
}

// decode decodes the JSON of one tool, raw, into t, and returns the tool
// keep makes of it, or nil for a null. The raw schemas are raw's own bytes
// (see fastjson.Unmarshal): keep packs copies of them, and raw may then be
// used again.
func (t *toolJSON) decode(raw []byte, pack *schemaPacker, keep func(*toolJSON, *schemaPacker) *mcp.Tool) (*mcp.Tool, error) {
	*t = toolJSON{}
	tp := t // null sets it to nil; a decoding encoding/json redoes, to a new one
	if err := fastjson.Unmarshal(raw, &tp); err != nil {
		return nil, err
	}
	if tp == nil {
		return nil, nil
	}
	return keep(tp, pack), nil
}

// A tools array is decoded in batches of about batchBytes of JSON (or
// batchTools tools, whichever comes first): large enough that handing
// one to a goroutine costs nothing beside decoding it, small enough that
// the JSON read ahead of the decoders stays a few MB.
const (
	batchTools = 256
	batchBytes = 256 << 10
)

// decodeToolsParallel is decodeToolArray for an array whose tools are
// packed by packers of the call's own, on several goroutines: this one
// reads each tool's JSON off the stream, as decodeToolArray would, and the
// others decode batches of them, each with a packer of its own: decoding,
// the larger part of the work, runs beside the reading. The tools and the
// first error (by the tool it names) are those decodeToolArray gives; once
// a batch fails, the rest of the array is not read.
func decodeToolsParallel(r *jsonstream.Reader, keep func(*toolJSON, *schemaPacker) *mcp.Tool) ([]*mcp.Tool, error) {
	workers := runtime.GOMAXPROCS(0)
	if workers == 1 {
		return decodeToolArray(r, new(schemaPacker), keep)
	}
	// Each decoder has a packer of its own; at most a batch per decoder waits.
	jobs := make(chan *toolBatch, workers)
	var (
		wg      sync.WaitGroup
		failed  atomic.Bool
		batches []*toolBatch
		readErr error
	)
	// A batch's JSON is read into room made for it, which goes back to
	// the reader once the batch is decoded (the tools keep copies of what
	// they need): grown from nothing tool by tool and then dropped, the
	// batches' buffers took 0.23 s of the reader's 0.51 s at 100,000 tools.
	free := make(chan []byte, workers+1)
	for range workers {
		wg.Go(func() {
			var pack schemaPacker
			for b := range jobs {
				raw := b.raw
				if b.decode(&pack, keep); b.err != nil {
					failed.Store(true)
				}
				select {
				case free <- raw[:0]:
				default:
				}
			}
		})
	}
	newBatch := func(first int) *toolBatch {
		b := &toolBatch{first: first, ends: make([]int, 0, batchTools)}
		select {
		case b.raw = <-free:
		default:
			b.raw = make([]byte, 0, batchBytes+batchBytes/4)
		}
		return b
	}
	b := newBatch(0)
	send := func() {
		batches = append(batches, b)
		next := newBatch(b.first + len(b.ends))
		jobs <- b
		b = next
	}
	for i := 0; !failed.Load(); i++ {
		raw, err := nextTool(r, i, b.raw)
		if err != nil || raw == nil {
			readErr = err
			break
		}
		b.raw = raw
		b.ends = append(b.ends, len(b.raw))
		if len(b.ends) == batchTools || len(b.raw) >= batchBytes {
			send()
		}
	}
	if len(b.ends) > 0 {
		send()
	}
	close(jobs)
	wg.Wait()
	n := 0
	for _, b := range batches {
		if b.err != nil {
			return nil, b.err
		}
		n += len(b.tools)
	}
	if readErr != nil {
		return nil, readErr
	}
	var tools []*mcp.Tool
	if n > 0 {
		tools = slices.Grow(tools, n)
	}
	for _, b := range batches {
		tools = append(tools, b.tools...)
	}
	return tools, nil
}

// A toolBatch is the JSON of consecutive tools of an array, end to end,
// and once decoded, its tools or the first error.
type toolBatch struct {
	first int // the index of its first tool in the array
	raw   []byte
	ends  []int // where each tool's JSON ends in raw
	tools []*mcp.Tool
	err   error
}

// decode decodes the batch's tools as decodeToolArray does, and lets go
// of their JSON.
func (b *toolBatch) decode(pack *schemaPacker, keep func(*toolJSON, *schemaPacker) *mcp.Tool) {
	var t toolJSON
	start := 0
	for i, end := range b.ends {
		raw := b.raw[start:end]
		tool, err := t.decode(raw, pack, keep)
		if err != nil {
			b.err = fmt.Errorf("tools[%d]: %v", b.first+i, err)
			break
		}
		b.tools = append(b.tools, tool)
		start = end
	}
	b.raw, b.ends = nil, nil
}

// PackSchemas keeps the tools' schemas as compact JSON, packed side by side.
// A client decodes a listing's schemas into maps, which take several times
// the memory of their JSON; the catalog holds a schema for every tool, and
// serves and measures them as JSON anyway. A missing or null input schema
// becomes {"type":"object"}, as the protocol intends.
func PackSchemas(tools []*mcp.Tool) {
	var p SchemaPacker
	for _, t := range tools {
		p.Pack(t)
	}
}

// A SchemaPacker packs the schemas of tools that come one at a time, as
// PackSchemas does for a slice of them. A listing read page by page can
// then drop each decoded schema at once, rather than hold all of them,
// at several times the size of their JSON, until the last page is in.
type SchemaPacker struct{ p schemaPacker }

// Pack replaces t's schemas with their compact JSON, packed, and a missing
// or null input schema with {"type":"object"}; a nil tool is left alone.
func (p *SchemaPacker) Pack(t *mcp.Tool) {
	if t == nil {
		return
	}
	if schema.Missing(t.InputSchema) {
		t.InputSchema = schema.Default()
	} else {
		t.InputSchema = p.p.pack(t.InputSchema)
	}
	t.OutputSchema = p.p.pack(t.OutputSchema)
}

// schemaPacker stores compacted schemas side by side in large chunks. A
// catalog's schemas are many small byte slices that live as long as it does;
// allocated one by one among a decoder's short-lived garbage, they would
// leave the heap full of holes that the runtime can neither reuse nor give
// back (at 100,000 tools, about 40 MB of them). A chunk lives until none of
// its schemas is used, which for a catalog is when the catalog goes.
type schemaPacker struct{ chunk []byte }

// Chunks grow from minChunk to maxChunk, so that a catalog of three tools
// does not hold a megabyte.
const (
	minChunk = 4 << 10
	maxChunk = 1 << 20
)

// pack returns schema as compact JSON; a schema that cannot be encoded is
// left as it is.
func (p *schemaPacker) pack(schema any) any {
	if schema == nil {
		return nil
	}
	raw, ok := schema.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(schema); err != nil {
			return schema
		}
	}
	return p.compact(raw)
}

// compact drops the insignificant white space of raw, keeping its key
// order (encoding/json sends RawMessage compacted anyway), and stores the
// result in the current chunk.
func (p *schemaPacker) compact(raw json.RawMessage) json.RawMessage {
	if cap(p.chunk)-len(p.chunk) < len(raw) {
		p.chunk = make([]byte, 0, max(len(raw), min(maxChunk, 2*cap(p.chunk)), minChunk))
	}
	free := p.chunk[len(p.chunk):len(p.chunk)]
	b := bytes.NewBuffer(free)
	if json.Compact(b, raw) != nil || b.Len() > len(raw) {
		// Not JSON (the decoder would have said so), or not shorter:
		// never write past the room checked above.
		return bytes.Clone(raw)
	}
	n := b.Len()
	p.chunk = p.chunk[:len(p.chunk)+n]
	return json.RawMessage(free[:n:n])
}

// compactDecoded is compact for JSON that a decoder has read, and so
// checked: it drops the white space outside strings, which is all that
// json.Compact changes in valid JSON, without checking it again.
func (p *schemaPacker) compactDecoded(raw json.RawMessage) json.RawMessage {
	if cap(p.chunk)-len(p.chunk) < len(raw) {
		p.chunk = make([]byte, 0, max(len(raw), min(maxChunk, 2*cap(p.chunk)), minChunk))
	}
	n := len(p.chunk)
	p.chunk = appendWithoutSpace(p.chunk, raw)
	return json.RawMessage(p.chunk[n:len(p.chunk):len(p.chunk)])
}

// appendWithoutSpace appends the JSON text raw without the white space
// outside its strings.
func appendWithoutSpace(dst, raw []byte) []byte {
	start, inString := 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...)
}

// toolJSON decodes one tool with its schemas as raw JSON: these fields
// shadow mcp.Tool's own, which would decode the schemas into maps.
type toolJSON struct {
	mcp.Tool
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// openToolsArray reads up to the first element of the tools array: the
// document's own array, or the "tools" array of a tools/list result.
func openToolsArray(r *jsonstream.Reader) error {
	const want = `want a JSON array of tools or a tools/list result`
	c, err := r.Peek()
	if err != nil {
		return fmt.Errorf("%s: %v", want, err)
	}
	if c == '[' {
		return r.Expect('[')
	}
	if c != '{' {
		return errors.New(want)
	}
	r.Expect('{')
	for n := 0; ; n++ {
		switch more, err := r.More('}', n); {
		case err != nil:
			return fmt.Errorf("%s: %v", want, err)
		case !more:
			return errors.New(`want a JSON array of tools or an object with a "tools" array`)
		}
		key, err := r.Key()
		if err != nil {
			return fmt.Errorf("%s: %v", want, err)
		}
		if key == "tools" {
			if r.Expect('[') != nil {
				return errors.New(`"tools" is not an array`)
			}
			return nil
		}
		// Skipped, but checked: a file that is not JSON is refused whole.
		if raw, err := r.Value(nil); err != nil {
			return fmt.Errorf("%s: %v", want, err)
		} else if !json.Valid(raw) {
			return fmt.Errorf("%s: %q is not valid JSON", want, key)
		}
	}
}
