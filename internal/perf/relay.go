package perf

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Sizes of the relay figures.
const (
	relayRoundTrips = 10_000 // per round and subject
	relayBurst      = 50_000 // server→client frames per burst
	relayWarmUp     = 200    // round trips before each measured series
	quickRoundTrips = 200
	quickBurst      = 2_000
)

// Relay measures round trips one at a time and a burst of server→client
// frames through each subject (direct, tcp-relay, wsproxy, and mitmproxy
// when cfg.Mitmproxy is set) on the same upstream. Each round visits every
// subject, in an order rotated by one each round, so that load from other
// work on the machine falls on all of them alike. wsproxy is started
// afresh for each round (its report gives the round's validation gaps);
// the other subjects serve every round.
func Relay(ctx context.Context, cfg Config) ([]Figure, error) {
	rounds := max(cfg.Rounds, 1)
	nRTT, nBurst := relayRoundTrips, relayBurst
	if cfg.Quick {
		nRTT, nBurst = quickRoundTrips, quickBurst
	}
	up, err := startUpstream()
	if err != nil {
		return nil, err
	}
	defer up.close()

	names := []string{Direct, TCPRelay, Wsproxy}
	if cfg.Mitmproxy != "" {
		names = append(names, Mitmproxy)
	}
	// Long-lived subjects.
	started := map[string]*subject{}
	defer func() {
		for _, s := range started {
			_, _ = s.stop()
		}
	}()
	for _, n := range names {
		if n == Wsproxy {
			continue
		}
		s, err := startSubject(ctx, cfg, n, up, 0, wsproxyOptions{})
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", n, err)
		}
		started[n] = s
	}

	rate := Figure{Name: "round trips, one at a time, 1 KiB each way", Unit: "msgs/s", Goal: "wsproxy ≥ 0.95× tcp-relay; ≥ 5× mitmproxy"}
	p50 := Figure{Name: "round trip p50", Unit: "µs"}
	p99 := Figure{Name: "round trip p99", Unit: "µs"}
	burst := Figure{Name: fmt.Sprintf("burst, %d server→client 1 KiB frames", nBurst), Unit: "frames/s",
		Goal: "wsproxy ≥ 0.8× tcp-relay; ≥ 10× mitmproxy"}
	gaps := Figure{Name: "frames not validated in the burst (proxy.validation-gap)", Unit: "frames", Goal: "0"}
	var other []string
	for r := range rounds {
		order := slices.Clone(names)
		k := r % len(order)
		order = append(order[k:], order[:k]...)
		for _, n := range order {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s := started[n]
			if n == Wsproxy {
				if s, err = startSubject(ctx, cfg, n, up, r, wsproxyOptions{}); err != nil {
					return nil, fmt.Errorf("start wsproxy: %w", err)
				}
			}
			rtts, d, err := relayRound(ctx, s.url, nRTT, nBurst)
			if n == Wsproxy {
				res, serr := s.stop()
				if err == nil {
					err = serr
				}
				gaps.Add(n, float64(res.gaps))
				if res.findings > 0 {
					other = append(other, fmt.Sprintf("round %d: %d findings (%s)", r+1, res.findings, strings.Join(res.rules, ", ")))
				}
			}
			if err != nil {
				return nil, fmt.Errorf("%s, round %d: %w", n, r+1, err)
			}
			var total time.Duration
			for _, t := range rtts {
				total += t
			}
			rate.Add(n, float64(len(rtts))/total.Seconds())
			p50.Add(n, micros(quantile(rtts, 0.50)))
			p99.Add(n, micros(quantile(rtts, 0.99)))
			burst.Add(n, float64(nBurst)/d.Seconds())
		}
	}
	gaps.Note = "wsproxy's report (its other findings on this clean traffic: none)"
	if len(other) > 0 {
		gaps.Note = "wsproxy's report; other findings on this clean traffic: " + strings.Join(other, "; ")
	}
	if cfg.Mitmproxy == "" {
		rate.Note, burst.Note = "mitmproxy not installed", "mitmproxy not installed"
	}
	if cfg.Wsproxy == "" {
		note := "wsproxy and the tcp relay served in this process (no wsproxy binary given)"
		rate.Note = strings.TrimPrefix(rate.Note+"; "+note, "; ")
		burst.Note = strings.TrimPrefix(burst.Note+"; "+note, "; ")
	}
	return []Figure{rate, p50, p99, burst, gaps}, nil
}

// relayRound measures one subject once: round trips on one connection,
// then a burst on another.
func relayRound(ctx context.Context, url string, nRTT, nBurst int) ([]time.Duration, time.Duration, error) {
	c, err := dialClient(ctx, url)
	if err != nil {
		return nil, 0, err
	}
	if _, err := c.roundTrips(relayWarmUp); err != nil {
		c.close()
		return nil, 0, err
	}
	rtts, err := c.roundTrips(nRTT)
	c.close()
	if err != nil {
		return nil, 0, err
	}
	c, err = dialClient(ctx, url)
	if err != nil {
		return nil, 0, err
	}
	defer c.close()
	d, err := c.burst(nBurst)
	return rtts, d, err
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
