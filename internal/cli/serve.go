package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"matombo/internal/app"
	"matombo/internal/server"
	"matombo/internal/store/postgres"
	"matombo/internal/store/sqlite"
	"matombo/search"
)

// defaultAddr is where the web app listens unless --addr or MATOMBO_ADDR
// says otherwise.
const defaultAddr = "127.0.0.1:8080"

func serveCommand() command {
	return command{
		name:    "serve",
		summary: "serve the web app: play against the computer or a friend (the default command)",
		usage: `usage: matombo serve [--addr host:port] [--db path] [--host name]... [--max-sockets n]
                     [--max-sockets-per-addr n] [--lobby-grace d] [--metrics-token token] [--verbose]

Serves the matombo web app: open the address it prints in a browser to play
Tsoro, Nsolo or Choro against the computer (levels 1 to 8), against a friend
by an invite link, or two players on one device; spectators watch by link,
and finished games are kept for replay, export and import.

Running matombo with no command at all is the same as 'matombo serve'.
Ctrl-C (SIGINT) or SIGTERM shuts the server down gracefully: requests in
flight and their writes finish first.

flags (before or after the arguments):
  --addr host:port   where to listen (default 127.0.0.1:8080, or the
                     environment variable MATOMBO_ADDR when set); use
                     0.0.0.0:8080 to let other devices of your network in,
                     port 0 for any free port
  --db path          the SQLite database of the games (default matombo.db in
                     the current directory, created on first start), or a
                     postgres:// URL of a PostgreSQL database (several
                     servers may share one: their players see each other's
                     moves live)
  --host name        a name the server answers for, such as the public name
                     of a proxy in front of it (repeatable, or a comma list;
                     default: the environment variable MATOMBO_HOST). The
                     server always answers localhost, 127.0.0.1, [::1], the
                     host of --addr and any IP address; requests for other
                     names get 421, against DNS rebinding, and only pages of
                     these hosts may create games or play. *.example.com
                     admits the names under example.com, * any name
  --max-sockets n    the most live game connections (WebSockets) open at once
                     (default: 3/4 of the process's open-files limit, at most
                     16384); over it, new ones get 503
  --max-sockets-per-addr n
                     the most live connections from one client address
                     (default 64); over it, new ones get 429
  --lobby-grace d    how long a lobby challenge outlives its creator's last
                     lobby connection (default 10s; a reload keeps it)
  --metrics-token t  make GET /metrics (Prometheus metrics) ask for
                     "Authorization: Bearer t" (default: the environment
                     variable MATOMBO_METRICS_TOKEN; unset: /metrics is open)
  --verbose          log every request on standard error

examples:
  matombo
  matombo serve --addr 127.0.0.1:9000 --db ~/games/matombo.db
  MATOMBO_ADDR=0.0.0.0:8080 matombo serve
  matombo serve --addr 127.0.0.1:8080 --host games.example.com
`,
		run: runServe,
	}
}

func runServe(ctx context.Context, e *env, args []string) int {
	c := serveCommand()
	fs := flagSet(c.name)
	addr := defaultAddr
	if v := os.Getenv("MATOMBO_ADDR"); v != "" {
		addr = v
	}
	fs.StringVar(&addr, "addr", addr, "")
	db := fs.String("db", "matombo.db", "")
	metricsToken := fs.String("metrics-token", os.Getenv("MATOMBO_METRICS_TOKEN"), "")
	var hosts hostList
	fs.Var(&hosts, "host", "")
	maxSockets := fs.Int("max-sockets", 0, "")
	maxPerAddr := fs.Int("max-sockets-per-addr", 0, "")
	verbose := fs.Bool("verbose", false, "")
	lobbyGrace := fs.Duration("lobby-grace", server.DefaultLobbyGrace, "")
	pos, done, code := parse(e, c, fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.usageError(c.name, "takes no arguments, got %q", pos[0])
	}
	if hosts == nil {
		if err := hosts.Set(os.Getenv("MATOMBO_HOST")); err != nil && os.Getenv("MATOMBO_HOST") != "" {
			return e.usageError(c.name, "MATOMBO_HOST: %v", err)
		}
	}
	if *maxSockets < 0 || *maxPerAddr < 0 {
		return e.usageError(c.name, "--max-sockets and --max-sockets-per-addr take a whole number of connections, 1 or more (0: the default)")
	}
	if *lobbyGrace < time.Second || *lobbyGrace > time.Hour {
		return e.usageError(c.name, "--lobby-grace %s is not allowed; give a duration from 1s to 1h, such as 10s", *lobbyGrace)
	}
	return serve(ctx, e, serveOptions{addr: addr, db: *db, metricsToken: *metricsToken, verbose: *verbose, hosts: hosts,
		limits: server.Limits{Sockets: *maxSockets, SocketsPerAddr: *maxPerAddr}, lobbyGrace: *lobbyGrace})
}

// hostList is the value of the repeatable --host flag: each use adds a
// comma-separated list of names.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }

func (h *hostList) Set(v string) error {
	var add []string
	for name := range strings.SplitSeq(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			add = append(add, name)
		}
	}
	if err := server.CheckHosts(add); err != nil {
		return err
	}
	if len(add) == 0 {
		return errors.New("no host name given; give a name such as games.example.com")
	}
	*h = append(*h, add...)
	return nil
}

// serveOptions are serve's settings from its flags.
type serveOptions struct {
	addr, db, metricsToken string
	verbose                bool
	hosts                  []string
	limits                 server.Limits
	lobbyGrace             time.Duration
}

// openStore opens the games database: PostgreSQL for a postgres:// URL
// (with the broadcast that links the instances sharing it), else the SQLite
// file at db.
func openStore(ctx context.Context, db string) (app.Store, app.Broadcast, error) {
	if postgres.IsDSN(db) {
		pg, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		return pg, postgres.NewNotifier(pg.Pool()), nil
	}
	s, err := sqlite.Open(ctx, db)
	return s, nil, err
}

// serve opens the database and runs the web app until ctx ends.
func serve(ctx context.Context, e *env, o serveOptions) int {
	dbPath := o.db
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	store, broadcast, err := openStore(ctx, dbPath)
	if err != nil {
		e.errorf("serve", "%v", err)
		return exitFailure
	}
	defer store.Close()
	err = server.Run(ctx, server.Config{
		Addr:  o.addr,
		Store: store,
		// The AI: the search's levels 1..8 (alpha-beta with noise at the
		// low levels, the endgame solver at level 8), each a pool of
		// players, so that games at one level think at once.
		AI:           search.NewLevels(rand.Uint64()),
		Broadcast:    broadcast,
		Logger:       log,
		MetricsToken: o.metricsToken,
		Hosts:        o.hosts,
		Limits:       o.limits,
		LobbyGrace:   o.lobbyGrace,
		Ready: func(url string) {
			fmt.Fprintf(e.stdout, "matombo: serving on %s\n", url)
			where := dbPath
			if postgres.IsDSN(dbPath) {
				where = "PostgreSQL"
			}
			fmt.Fprintf(e.stdout, "matombo: games are kept in %s; Ctrl-C stops the server\n", where)
		},
	})
	if err != nil {
		e.errorf("serve", "%v", err)
		return exitFailure
	}
	fmt.Fprintln(e.stdout, "matombo: stopped")
	return exitOK
}
