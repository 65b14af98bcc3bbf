package pgstate

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// KeySize is the size of the key that seals grants: AES-256.
const KeySize = 32

// A Key seals what the database keeps secret (OAuth grants, pending
// logins) with AES-256-GCM, each value bound to what it is stored under,
// so that a row copied under another key does not open.
type Key struct {
	aead cipher.AEAD
	// ownership signs the session ids and request states that name the
	// replica owning them (package internal/ownership): a key of its own,
	// derived from the file's, so that no value is both sealed and signed
	// with one key.
	ownership []byte
}

// ownershipLabel derives Key.ownership from the key file's bytes.
const ownershipLabel = "toolsearch: the replica owning a session or request state"

// OwnershipKey is the key every replica sharing the key file signs the
// session ids and request states it issues with.
func (k *Key) OwnershipKey() []byte { return k.ownership }

// NewKey makes a Key of KeySize bytes.
func NewKey(raw []byte) (*Key, error) {
	if len(raw) != KeySize {
		return nil, fmt.Errorf("the key must be %d bytes, not %d", KeySize, len(raw))
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, raw)
	mac.Write([]byte(ownershipLabel))
	return &Key{aead: aead, ownership: mac.Sum(nil)}, nil
}

// ReadKeyFile reads a key file: 64 hex digits (32 bytes), as WriteKeyFile
// writes, surrounding white space ignored. Its errors name the file and
// never quote it.
func ReadKeyFile(file string) (*Key, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("state.keyFile: %w (write one with `toolsearch state keygen %s`)", err, file)
	}
	text := bytes.TrimSpace(data)
	raw := make([]byte, hex.DecodedLen(len(text)))
	if _, err := hex.Decode(raw, text); err != nil || len(raw) != KeySize {
		return nil, fmt.Errorf("state.keyFile %s: want %d hex digits (%d random bytes), as `toolsearch state keygen FILE` writes", file, 2*KeySize, KeySize)
	}
	return NewKey(raw)
}

// WriteKeyFile writes a new key of random bytes to file as 64 hex digits
// and a line break, readable by its owner alone. An existing file is left
// alone: replacing a key makes every stored grant unreadable.
func WriteKeyFile(file string) error {
	raw := make([]byte, KeySize)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists: not replacing a key, which would make every stored login unreadable (remove it first if that is what you want)", file)
	}
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "%s\n", hex.EncodeToString(raw)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// seal encrypts plain, bound to context (what it is stored under).
func (k *Key) seal(plain []byte, context string) ([]byte, error) {
	nonce := make([]byte, k.aead.NonceSize(), k.aead.NonceSize()+len(plain)+k.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return k.aead.Seal(nonce, nonce, plain, []byte(context)), nil
}

// errSealed says a sealed value does not open: another key, or a value
// moved from another row.
var errSealed = errors.New("a stored secret does not open with this key file: another replica or an earlier run used another key (every replica needs the same state.keyFile), or the row was tampered with")

// open decrypts what seal made under the same context.
func (k *Key) open(sealed []byte, context string) ([]byte, error) {
	n := k.aead.NonceSize()
	if len(sealed) < n {
		return nil, errSealed
	}
	plain, err := k.aead.Open(nil, sealed[:n], sealed[n:], []byte(context))
	if err != nil {
		return nil, errSealed
	}
	return plain, nil
}
