package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
)

// IDs makes identifiers. Random in production; Sequential in tests, so the
// same script yields byte-identical frames.
type IDs interface {
	// UUID returns an RFC 4122 version-4 UUID string.
	UUID() string
	// New returns an opaque id that starts with prefix, such as "call_".
	New(prefix string) string
}

type randomIDs struct{}

// RandomIDs returns ids from crypto/rand.
func RandomIDs() IDs { return randomIDs{} }

func (randomIDs) UUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func (randomIDs) New(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// Sequential returns ids counted from 1: UUIDs
// 00000000-0000-4000-8000-000000000001, … and prefix1, prefix2, … (one
// counter per prefix).
func Sequential() IDs { return &seqIDs{n: map[string]uint64{}} }

type seqIDs struct {
	mu sync.Mutex
	n  map[string]uint64
}

func (s *seqIDs) next(key string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n[key]++
	return s.n[key]
}

func (s *seqIDs) UUID() string {
	n := s.next("\x00uuid")
	var b [16]byte
	for i := 0; i < 8; i++ {
		b[15-i] = byte(n >> (8 * i))
	}
	b[6] = 0x40
	b[8] = 0x80
	return formatUUID(b)
}

func (s *seqIDs) New(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, s.next(prefix))
}

func formatUUID(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
