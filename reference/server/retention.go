package server

import (
	"container/list"
	"time"
)

// Sessions outlive their connections so that a client can come back and
// resume (replay what it missed, answer a pending approval). Each kept
// session holds its replay window, up to Config.ReplayWindow events, so
// without a bound a server that runs for days keeps every session any
// client ever started. Retained bounds them the same way in every
// dialect: at most Config.MaxSessions sessions without a connection, none
// for longer than Config.SessionTTL, the one left longest forgotten first.

// Default retention of sessions without a connection.
const (
	DefaultMaxSessions = 256
	DefaultSessionTTL  = 10 * time.Minute
)

// Retained lists the sessions no connection is attached to, the one left
// longest first, with when each was left. It does not lock: the dialect's
// lock that guards its sessions guards it.
type Retained[T comparable] struct {
	max   int           // < 0: no bound
	ttl   time.Duration // < 0: no bound
	now   func() time.Time
	order *list.List // of *retained[T], oldest first
	at    map[T]*list.Element
}

type retained[T comparable] struct {
	s    T
	left time.Time
}

// NewRetained bounds sessions by the env's MaxSessions and SessionTTL,
// timed by its clock.
func NewRetained[T comparable](e *Env) *Retained[T] {
	return &Retained[T]{max: e.MaxSessions, ttl: e.SessionTTL, now: e.Now, order: list.New(), at: map[T]*list.Element{}}
}

// Len is how many sessions are kept without a connection.
func (r *Retained[T]) Len() int { return r.order.Len() }

// Has reports whether s is kept without a connection.
func (r *Retained[T]) Has(s T) bool { _, ok := r.at[s]; return ok }

// Left records that s has no connection any more (again: it moves to the
// back, its time restarts).
func (r *Retained[T]) Left(s T) {
	if e, ok := r.at[s]; ok {
		r.order.Remove(e)
	}
	r.at[s] = r.order.PushBack(&retained[T]{s: s, left: r.now()})
}

// Back takes s off the list as a connection attaches to it. expired is
// true when s was kept longer than SessionTTL: it is gone for the client,
// and the caller forgets it as Trim would have.
func (r *Retained[T]) Back(s T) (expired bool) {
	e, ok := r.at[s]
	if !ok {
		return false
	}
	expired = r.expired(e.Value.(*retained[T]))
	r.order.Remove(e)
	delete(r.at, s)
	return expired
}

// Forget takes s off the list without a connection attaching (the dialect
// dropped it for its own reasons).
func (r *Retained[T]) Forget(s T) {
	if e, ok := r.at[s]; ok {
		r.order.Remove(e)
		delete(r.at, s)
	}
}

// Trim takes off the list, and returns for the caller to forget, the
// sessions beyond MaxSessions and those kept longer than SessionTTL, the
// one left longest first. A session idle says is busy (a run still going
// with no one watching) stays, and is looked at again by a later Trim;
// nil idle means every session may go.
func (r *Retained[T]) Trim(idle func(T) bool) []T {
	var gone []T
	for e := r.order.Front(); e != nil; {
		next := e.Next()
		it := e.Value.(*retained[T])
		if !(r.max >= 0 && r.order.Len() > r.max) && !r.expired(it) {
			break // the rest were left later: none has expired either
		}
		if idle == nil || idle(it.s) {
			r.order.Remove(e)
			delete(r.at, it.s)
			gone = append(gone, it.s)
		}
		e = next
	}
	return gone
}

func (r *Retained[T]) expired(it *retained[T]) bool {
	return r.ttl >= 0 && r.now().Sub(it.left) > r.ttl
}
