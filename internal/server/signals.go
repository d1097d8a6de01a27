package server

import (
	"context"
	"sync"
	"time"

	"matombo/internal/app"
)

// The signals between instances (app.Signals): the lobby's challenges,
// presence and quick messages. Sending never blocks a handler: signals
// wait in a queue that one goroutine sends in order; past signalQueue
// waiting, a signal is dropped and logged (the stored challenges and the
// presence asked again after a resync cover a lost one).

// signalQueue bounds the signals waiting to be sent.
const signalQueue = 1024

// signaller sends this instance's signals.
type signaller struct {
	to    app.Signals // nil: one instance, nothing to send
	queue chan app.Signal
	start sync.Once
}

// signal queues sig for the other instances.
func (s *Server) signal(sig app.Signal) {
	g := &s.signals
	if g.to == nil {
		return
	}
	g.start.Do(func() {
		go func() {
			for {
				select {
				case <-s.hub.ctx.Done():
					return
				case sig := <-g.queue:
					ctx, cancel := context.WithTimeout(s.hub.ctx, 5*time.Second)
					if err := g.to.Signal(ctx, sig); err != nil && s.hub.ctx.Err() == nil {
						s.log.Warn("signal", "kind", sig.Kind, "err", err)
					}
					cancel()
				}
			}
		}()
	})
	select {
	case g.queue <- sig:
	default:
		s.log.Warn("signal: the queue is full; a signal is dropped", "kind", sig.Kind)
	}
}

// gotSignal handles a signal of another instance.
func (s *Server) gotSignal(sig app.Signal) {
	switch sig.Kind {
	case app.SignalChallenge:
		if s.lobby.svc != nil {
			s.lobby.hub.changed(sig.ID)
		}
	case app.SignalSay:
		s.hub.sendGame(sig.ID, serverMsg{Type: "say", By: sig.Side, Say: sig.Say}, true)
		s.presence.got(app.Signal{Kind: app.SignalAlive, Origin: sig.Origin})
	default:
		s.presence.got(sig)
	}
}

// resyncSignals is called when signals may have been lost.
func (s *Server) resyncSignals() {
	if s.lobby.svc != nil {
		s.lobby.hub.resync()
	}
	s.presence.resync()
}

// listenSignals hears the other instances' signals and says this one is
// alive, until ctx ends; wg tracks the goroutines. At the end it says bye.
func (s *Server) listenSignals(ctx context.Context, wg *sync.WaitGroup) {
	to := s.signals.to
	if to == nil {
		return
	}
	wg.Go(func() {
		if err := to.ListenSignals(ctx, s.gotSignal, s.resyncSignals); err != nil && ctx.Err() == nil {
			s.log.Error("signals: listen stopped; other instances' lobby and presence no longer reach this one", "err", err)
		}
	})
	wg.Go(func() {
		t := time.NewTicker(presenceAlive)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
				_ = to.Signal(bctx, app.Signal{Kind: app.SignalBye}) // lost: the others forget this one when it goes stale
				cancel()
				return
			case now := <-t.C:
				s.signal(app.Signal{Kind: app.SignalAlive})
				s.presence.prune(now)
			}
		}
	})
}
