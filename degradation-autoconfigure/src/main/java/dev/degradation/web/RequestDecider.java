package dev.degradation.web;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.degradation.engine.DegradationEngine;
import dev.degradation.engine.DegradationState;
import dev.degradation.engine.DependencySignal;
import dev.degradation.engine.RequestSimulation;
import dev.degradation.engine.SimulationSignal;
import dev.degradation.manifest.DegradationManifest;
import dev.degradation.overload.Admission;
import dev.degradation.overload.Admission.Admitted;
import dev.degradation.overload.Admission.NotAdmitted;
import dev.degradation.overload.Deadline;
import dev.degradation.overload.PassedPriority;
import dev.degradation.engine.OverloadSignal;

/**
 * The request decision that both web stacks share: for a request's method, path and headers, and
 * the engine's current state, whether it goes on (admitted, under load), is answered with its
 * route's fallback, is refused, or may wait for a place. It knows no web stack; each stack's
 * adapter reads its request through a {@link RequestView} and carries the {@link Decision} out.
 *
 * <p>While nothing is shed and admission is off the decision reads one volatile field and does
 * not ask for the path, unless the manifest has a {@code stale} route (then the live requests are
 * looked up too, for their copies). Under admission every request's path is read once, for both
 * questions: is it the Actuator's (never shed nor refused), and which route is it.
 */
public final class RequestDecider {

	/**
	 * The request (or exchange) attribute that holds the cause of an answer the starter gave
	 * instead of the application (a {@code String}, as in {@link DegradationHeaders#REASON}), for
	 * observations and logs that run after the answer.
	 */
	public static final String SHED_CAUSE_ATTRIBUTE = RequestDecider.class.getName() + ".SHED_CAUSE";

	/**
	 * The request (or exchange) attribute that names the route a request was handled by when its
	 * handler has no path pattern of Spring's (a {@code String}; a Spring Cloud Gateway's route,
	 * for one): the kind by which admission's limit tells requests of different service times
	 * apart. Whatever sets it must take its values from the application's configuration, never
	 * from the request, so that their number stays bounded.
	 */
	public static final String HANDLED_ROUTE_ATTRIBUTE = RequestDecider.class.getName() + ".HANDLED_ROUTE";

	/**
	 * The order of both stacks' adapters unless configured: right after Spring Security's filter
	 * chain (order -100 on both stacks), so that an unauthenticated request is refused before it
	 * could see a fallback, and before anything that would do work for a request about to be shed.
	 */
	public static final int DEFAULT_ORDER = -100 + 10;

	/** How long a request's body may take to arrive unless configured. */
	public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(10);

	/** The largest body read before admission unless configured. */
	public static final long DEFAULT_READ_AHEAD_BYTES = 64 * 1024;

	private static final Answer BODY_TOO_SLOW = new Answer(408,
			new String[] { "Connection", "close", "Cache-Control", "no-store" }, Answer.EMPTY);

	private static final Log logger = LogFactory.getLog(RequestDecider.class);

	private final DegradationEngine engine;

	/**
	 * The table of the current manifest and of the one before it: during a reload a request may
	 * still read the previous state, and it must then look its route up in the previous table.
	 */
	private volatile Tables tables;

	private final @Nullable PathPattern reserved;

	/** The Actuator's paths outside its base path, read once they are known ({@link #reserve}). */
	private volatile Supplier<? extends Collection<String>> reservedElsewhere = List::of;

	private volatile PathPattern @Nullable [] reservedElsewherePatterns;

	/**
	 * The application's own port when the Actuator is served on a port of its own, {@code -1}
	 * while not known or when it is not: the base path is not the Actuator's there.
	 */
	private volatile IntSupplier applicationPortBesideActuator = () -> -1;

	private final @Nullable OverloadSignal overload;

	private final String deadlineHeader;

	private final Duration maxDeadline;

	/**
	 * The decision to let a request through without looking it up, for the last state read: a
	 * request while nothing is shed and admission is off costs no allocation.
	 */
	private volatile Decision.@Nullable Proceed unlooked;

	private volatile @Nullable String priorityHeader;

	private volatile Function<Throwable, @Nullable String> refusedCalls = (failure) -> null;

	private volatile long bodyTimeoutNanos = DEFAULT_BODY_TIMEOUT.toNanos();

	private volatile long readAheadBytes = DEFAULT_READ_AHEAD_BYTES;

	private volatile byte @Nullable [] simulationToken;

	private volatile CheapAnswerTurns cheapAnswerTurns = CheapAnswerTurns.standard();

	private volatile RefusedCallers refusedCallers = new RefusedCallers(RefusedCallers.Mode.RETRYING);

	/**
	 * Create a decider.
	 * @param engine the engine whose state decides what is shed
	 * @param routes the compiled routes of the engine's manifest
	 * @param reservedBasePath a base path that is never shed nor refused (the Actuator's), or
	 * {@code null}
	 * @param overload the overload signal whose admission decides under load, or {@code null}
	 * @param deadlineHeader the request header that carries the caller's deadline in milliseconds
	 * @param maxDeadline the longest deadline trusted, whatever the header says
	 */
	public RequestDecider(DegradationEngine engine, RouteTable routes, @Nullable String reservedBasePath,
			@Nullable OverloadSignal overload, String deadlineHeader, Duration maxDeadline) {
		this.engine = engine;
		this.tables = new Tables(routes, routes);
		this.reserved = (reservedBasePath != null && !reservedBasePath.isEmpty() && !reservedBasePath.equals("/"))
				? PathPatternParser.defaultInstance.parse(reservedBasePath + "/**") : null;
		this.overload = overload;
		this.deadlineHeader = deadlineHeader;
		this.maxDeadline = maxDeadline;
	}

	/**
	 * Never shed nor refuse the Actuator's paths that lie outside its base path on the
	 * application's port: every endpoint's path when the base path is the application's root
	 * ({@code management.endpoints.web.base-path=/}), and the additional paths of its health
	 * groups ({@code /livez}, {@code /readyz}), which an orchestrator probes. Read at the first
	 * request, when the endpoints are known.
	 * @param paths the paths, each reserved with everything under it
	 */
	public void reserve(Supplier<? extends Collection<String>> paths) {
		this.reservedElsewhere = paths;
		this.reservedElsewherePatterns = null;
	}

	/**
	 * Reserve the Actuator's base path only off the application's own port, when the Actuator is
	 * served on a port of its own ({@code management.server.port}): there the base path is the
	 * application's like any other, and a request to it is decided (admitted, refused or shed)
	 * like any other, rather than pass every bound on the strength of a prefix.
	 * @param applicationPort the application's port, {@code -1} while it is not known (the base
	 * path is then reserved on every port)
	 */
	public void reserveBasePathOffPort(IntSupplier applicationPort) {
		this.applicationPortBesideActuator = applicationPort;
	}

	/**
	 * Rank each request in admission by the priority its caller passed in a header, which can
	 * only lower it ({@link PassedPriority}), and let each request through with the priority it is
	 * served at, for the calls made while serving it ({@link Decision.Proceed#priority()}). Off
	 * until set.
	 * @param header the request header that carries the priority, or {@code null} for neither
	 */
	public void setPriorityHeader(@Nullable String header) {
		this.priorityHeader = header;
		this.unlooked = null;
	}

	/**
	 * Answer a request with its route's fallback when its handler fails because a guarded call
	 * got no answer ({@link #afterFailure}). Off until set: the decision knows no client, and the
	 * client's exceptions are the client's to read.
	 * @param refusedDependency the dependency whose guarded call got no answer, read from a
	 * handler's failure, or {@code null} when the failure is not such a call
	 */
	public void setRefusedCalls(Function<Throwable, @Nullable String> refusedDependency) {
		this.refusedCalls = refusedDependency;
	}

	/**
	 * Let a request ask for its own simulation ({@link RequestSimulation}) with the shared token.
	 * Off until set: without it the simulation headers change nothing. While on, every request is
	 * read for the headers, so the decision of a healthy service reads its request too.
	 * @param token the shared token, or {@code null} to turn it off
	 */
	public void setRequestSimulation(@Nullable String token) {
		this.simulationToken = (token != null) ? RequestSimulation.digest(token) : null;
		this.unlooked = null;
	}

	/**
	 * Replace the turns that cheap answers take while admitted work is served
	 * ({@link CheapAnswerTurns#standard()} unless set).
	 * @param turns the turns
	 */
	public void setCheapAnswerTurns(CheapAnswerTurns turns) {
		this.cheapAnswerTurns = turns;
	}

	/**
	 * Return the turns that cheap answers take while admitted work is served.
	 * @return the turns
	 */
	public CheapAnswerTurns cheapAnswerTurns() {
		return this.cheapAnswerTurns;
	}

	/**
	 * Set which refusals take turns with the other cheap answers.
	 * @param callers the record of refused callers
	 */
	public void setRefusedCallers(RefusedCallers callers) {
		this.refusedCallers = callers;
	}

	/**
	 * Return the record of refused callers, which says whether a refusal takes its turn.
	 * @return the record
	 */
	public RefusedCallers refusedCallers() {
		return this.refusedCallers;
	}

	/**
	 * Return whether requests may ask for their own simulation.
	 * @return whether a token is set
	 */
	public boolean simulatesRequests() {
		return this.simulationToken != null;
	}

	/**
	 * Bound the time a request's body may take to arrive, and the size of a body read whole
	 * before the request is admitted ({@link #readsBodyFirst}), so that a caller's slowness
	 * never holds a place in admission: a body of at most {@code readAheadBytes} is read before
	 * admission and must arrive within {@code timeout}; a larger or streamed one is read after,
	 * and must arrive within {@code timeout} of its admission (and its caller's deadline).
	 * @param timeout the longest a body may take to arrive
	 * @param readAheadBytes the largest body read before admission, {@code 0} for none
	 */
	public void setBodyLimits(Duration timeout, long readAheadBytes) {
		this.bodyTimeoutNanos = timeout.toNanos();
		this.readAheadBytes = readAheadBytes;
	}

	/**
	 * Return whether a request's body is to be read whole before the request is decided: under
	 * admission, a body of a declared length up to the read-ahead bound, not a form (which the
	 * server parses from its own stream, past any wrapper), and not to the Actuator's base path
	 * (never admitted, so its body holds no place).
	 * @param request the request
	 * @param contentLength the body's declared length, {@code -1} when not declared
	 * @param contentType the body's content type, or {@code null}
	 * @return whether to read it first
	 */
	public boolean readsBodyFirst(RequestView request, long contentLength, @Nullable String contentType) {
		if (contentLength <= 0 || contentLength > this.readAheadBytes || this.overload == null
				|| this.overload.active() == null) {
			return false;
		}
		if (contentType != null && (contentType.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33)
				|| contentType.regionMatches(true, 0, "multipart/", 0, 10))) {
			return false;
		}
		return !reserved(request, request.pathWithinApplication());
	}

	/**
	 * Return how long a body read before admission may take to arrive: the body time-out, and
	 * never past its caller's deadline. Past it, the request is answered {@link #bodyTooSlow()}.
	 * @param request the request
	 * @return the bound, in nanoseconds
	 */
	public long bodyTimeoutNanos(RequestView request) {
		long deadline = deadline(request);
		long timeout = this.bodyTimeoutNanos;
		return (deadline <= 0) ? timeout : Math.min(deadline, timeout);
	}

	/**
	 * Return the answer to a request whose body did not arrive within its bound before
	 * admission: {@code 408 Request Timeout}, and the connection closed, since the rest of the
	 * body is never read.
	 * @return the answer
	 */
	public Answer bodyTooSlow() {
		return BODY_TOO_SLOW;
	}

	/**
	 * Tell admission how an admitted request ended, by the one rule of what the limit may learn
	 * from ({@link Admitted#ended}): only a request the application served on its own (no
	 * exception, no client that left, a status below 400, not the route's fallback) may be a
	 * sample; it is a loss only when the service worked on it longer than the longest deadline
	 * trusted ({@code degradation.deadline.max}: no caller waits longer, and no caller sets it),
	 * and no sample when it ended after its caller's own deadline. Requests are sampled by kind,
	 * the pattern of the handler that served it, so that a fast route's latency is no measure of a
	 * slow one's wait.
	 * @param proceed the decision that let the request through
	 * @param failed whether the application failed (an exception, or a client that left)
	 * @param status the answer's status
	 * @param answeredByFallback whether the answer was the route's fallback after all
	 * @param handledPattern the pattern of the handler that served the request, or the route it
	 * was handled by ({@link #HANDLED_ROUTE_ATTRIBUTE}), or {@code null} when neither is known (the
	 * manifest route's pattern is taken then, when there is one)
	 */
	public void end(Decision.Proceed proceed, boolean failed, int status, boolean answeredByFallback,
			@Nullable String handledPattern) {
		Admitted admitted = proceed.admitted();
		if (admitted != null) {
			ShedRoute route = proceed.route();
			String kind = (handledPattern != null) ? handledPattern : (route != null) ? route.route().path() : null;
			admitted.ended(!failed && status < 400 && !answeredByFallback, proceed.deadlineNanos(),
					this.maxDeadline.toNanos(), kind);
		}
	}

	/**
	 * Let a request through at once if nothing about it needs to be read: nothing is shed,
	 * admission is off (or without an {@code overload} section) and no route keeps stale copies.
	 * The common case of a healthy service, decided without reading the request.
	 * @return the decision to let the request through, or {@code null} when the request must be
	 * {@link #decide(RequestView) decided} on what it is
	 */
	public Decision.@Nullable Proceed withoutLookup() {
		DegradationState state = this.engine.state();
		if (state.shedsAnything() || (this.overload != null && this.overload.active() != null)
				|| this.priorityHeader != null || this.simulationToken != null) {
			return null;
		}
		Decision.Proceed unlooked = this.unlooked;
		if (unlooked != null && unlooked.state() == state) {
			return unlooked;
		}
		RouteTable table = this.tables.of(state.manifest());
		if (table != null && table.keepsCopies()) {
			return null;
		}
		unlooked = new Decision.Proceed(state, null, null, Deadline.NONE, Decision.Proceed.NOT_PASSED);
		this.unlooked = unlooked;
		return unlooked;
	}

	/**
	 * Return whether admitted requests are served or wait for a place now: work someone waits
	 * for, which answers that do no work for their caller should not take the CPU from.
	 * @return whether admission has requests in flight or waiting; {@code false} without an
	 * {@code overload} section
	 */
	public boolean serving() {
		OverloadSignal overload = this.overload;
		OverloadSignal.Active active = (overload != null) ? overload.active() : null;
		return active != null && active.admission().serving();
	}

	/**
	 * Decide what becomes of a request, at once: nothing here parks a thread.
	 * @param request the request
	 * @return the decision
	 */
	public Decision decide(RequestView request) {
		return decide(request, 0);
	}

	/**
	 * Decide what becomes of a request whose caller has already waited a while since it arrived
	 * (for its body, read before the decision), at once: nothing here parks a thread.
	 * @param request the request
	 * @param waitedNanos how long ago the request arrived, taken off its caller's deadline
	 * @return the decision
	 */
	public Decision decide(RequestView request, long waitedNanos) {
		DegradationState state = this.engine.state();
		RequestSimulation simulation = simulation(request, state);
		OverloadSignal.Active admission = (this.overload != null) ? this.overload.active() : null;
		if (admission != null) {
			PathContainer path = request.pathWithinApplication();
			boolean reserved = reserved(request, path);
			ShedRoute route = reserved ? null : find(this.tables.of(state.manifest()), request.method(), path);
			long deadline = deadline(request, waitedNanos);
			if (route != null) {
				Decision.Shed shed = shed(state, route, simulation, deadline);
				if (shed != null) {
					return shed;
				}
			}
			return reserved ? new Decision.Proceed(state, null, null, deadline, Decision.Proceed.NOT_PASSED)
					: admit(admission, request, state, route, deadline, simulation);
		}
		ShedRoute route = null;
		if (state.shedsAnything() || simulation != null) {
			route = route(request, this.tables.of(state.manifest()));
			Decision.Shed shed = (route != null) ? shed(state, route, simulation, deadline(request, waitedNanos)) : null;
			if (shed != null) {
				return shed;
			}
		}
		else {
			RouteTable table = this.tables.of(state.manifest());
			if (table != null && (table.keepsCopies() || this.priorityHeader != null)) {
				// Live requests are looked up only to keep the answers of a 'stale' route, or to know
				// the priority of their route when priorities are passed on.
				route = route(request, table);
			}
		}
		return new Decision.Proceed(state, route, null, Deadline.NONE, servedPriority(request, route), simulation);
	}

	/**
	 * The fallback of a shed route: shed by the state (whose cause wins: the answer says what is
	 * true of the service), or by the request's own simulation.
	 */
	private Decision.@Nullable Shed shed(DegradationState state, ShedRoute route,
			@Nullable RequestSimulation simulation, long deadline) {
		String cause = state.shedCause(route.index());
		if (cause != null) {
			return new Decision.Shed(state, route, cause, shedKind(state, route), deadline);
		}
		if (simulation != null && simulation.sheds(state.manifest(), route.route(), route.priority())) {
			return new Decision.Shed(state, route, RequestSimulation.CAUSE, SimulationSignal.KIND, deadline);
		}
		return null;
	}

	/**
	 * The simulation a request asked for itself, when requests may and its token is right.
	 */
	private @Nullable RequestSimulation simulation(RequestView request, DegradationState state) {
		byte[] token = this.simulationToken;
		if (token == null) {
			return null;
		}
		String header = request.header(RequestSimulation.HEADER);
		return (header != null) ? RequestSimulation.read(token, state.manifest().maxPriority(), header,
				request.header(RequestSimulation.TOKEN_HEADER)) : null;
	}

	/** A shed route always has the kind of the signal that shed it; the state records both. */
	private static String shedKind(DegradationState state, ShedRoute route) {
		String kind = state.shedKind(route.index());
		return (kind != null) ? kind : "unknown";
	}

	/**
	 * Admission under load: a degradable request over its tier's share answers its fallback at
	 * once; a core request may wait at most the queue bound and its caller's deadline, or is
	 * refused with Retry-After.
	 */
	private Decision admit(OverloadSignal.Active active, RequestView request, DegradationState state,
			@Nullable ShedRoute route, long deadline, @Nullable RequestSimulation simulation) {
		Admission admission = active.admission();
		int rank = (route != null) ? active.rank(route.priority()) : admission.coreRank();
		String priorityHeader = this.priorityHeader;
		if (priorityHeader != null) {
			rank = active.lowered(rank, PassedPriority.read(request.header(priorityHeader)));
		}
		Admission.Decision decision = admission.decide(rank, route != null, deadline);
		if (decision instanceof Admitted admitted) {
			return new Decision.Proceed(state, route, admitted, deadline, servedPriority(request, route), simulation);
		}
		if (decision == NotAdmitted.WAIT) {
			return new Decision.Wait(state, route, active, deadline, servedPriority(request, route), simulation);
		}
		if (decision == NotAdmitted.SHED && route != null) {
			return new Decision.Shed(state, route, OverloadSignal.CAUSE, OverloadSignal.KIND, deadline);
		}
		return new Decision.Refuse(state, active, deadline);
	}

	/**
	 * Decide a request that waited for a place.
	 * @param wait the decision to wait
	 * @param admitted the place it was given, or {@code null} when none freed in time
	 * @return the request let through, or refused
	 */
	public Decision afterWait(Decision.Wait wait, @Nullable Admitted admitted) {
		return (admitted != null) ? new Decision.Proceed(wait.state(), wait.route(), admitted, wait.deadlineNanos(),
				wait.priority(), wait.simulation())
				: new Decision.Refuse(wait.state(), wait.overload(), wait.deadlineNanos());
	}

	/**
	 * Decide a request that was let through and whose handler failed: its route's fallback when
	 * the failure is a guarded call to a dependency the route requires that got no answer, as the
	 * {@link #setRefusedCalls refused calls} read it (the breaker kept the call back, its time ran
	 * out, or it failed with an I/O error). The stack must still check
	 * that nothing of the answer was sent, and then replace what the handler began of it as
	 * {@link ReplacedAnswer} says.
	 * @param proceeded the decision that let the request through
	 * @param request the request
	 * @param failure what the handler failed with
	 * @return the fallback, or {@code null} when the failure is the application's
	 */
	public Decision.@Nullable Shed afterFailure(Decision.Proceed proceeded, RequestView request, Throwable failure) {
		String dependency = this.refusedCalls.apply(failure);
		if (dependency == null) {
			return null;
		}
		Decision.Shed fallback = afterRefusedCall(proceeded, request, dependency);
		if (fallback != null && logger.isDebugEnabled()) {
			logger.debug("Answering " + request.method() + " " + request.rawPath() + " with its fallback: " + failure);
		}
		return fallback;
	}

	/**
	 * Decide a request that was let through and whose handler failed because a guarded call to a
	 * dependency got no answer: its route's fallback, if the route requires that dependency. The
	 * stack must still check that nothing of the answer was sent.
	 * @param proceeded the decision that let the request through
	 * @param request the request
	 * @param dependency the dependency whose call got no answer
	 * @return the fallback, or {@code null} when the route does not require the dependency (the
	 * failure is then the application's)
	 */
	public Decision.@Nullable Shed afterRefusedCall(Decision.Proceed proceeded, RequestView request,
			String dependency) {
		ShedRoute route = proceeded.route();
		if (route == null) {
			// Nothing was shed when the request came in, so it was not looked up then.
			route = route(request, this.tables.of(proceeded.state().manifest()));
		}
		if (route == null || !route.route().requires().contains(dependency)) {
			return null;
		}
		RequestSimulation simulation = proceeded.simulation();
		if (simulation != null && simulation.fails(dependency)) {
			return new Decision.Shed(proceeded.state(), route, RequestSimulation.CAUSE, SimulationSignal.KIND,
					proceeded.deadlineNanos());
		}
		return new Decision.Shed(proceeded.state(), route, "dependency:" + dependency, DependencySignal.KIND,
				proceeded.deadlineNanos());
	}

	/**
	 * Return whether a request's route requires the dependency whose guarded call failed, as the
	 * {@link #setRefusedCalls refused calls} read the failure: for a request the application's
	 * own resilience sent to a fallback of its own after such a failure, which the route's
	 * declared fallback is to answer instead ({@link #afterFailure} then decides it).
	 * @param request the request as it came in
	 * @param failure the failure the application's resilience caught
	 * @return whether the failure is a guarded call to a dependency the request's route requires
	 */
	public boolean requiresRefused(RequestView request, Throwable failure) {
		String dependency = this.refusedCalls.apply(failure);
		if (dependency == null) {
			return false;
		}
		ShedRoute route = route(request, this.tables.current());
		return route != null && route.route().requires().contains(dependency);
	}

	/**
	 * Make a table the current one, keeping the current one as the previous: called before the
	 * engine replaces its manifest with the table's, so that every state a request can read has
	 * its table.
	 * @param table the table of the manifest about to be active
	 */
	public void prepare(RouteTable table) {
		this.tables = new Tables(table, this.tables.current());
	}

	/**
	 * Return the engine whose state this decider reads.
	 * @return the engine
	 */
	public DegradationEngine engine() {
		return this.engine;
	}

	/**
	 * The priority a request is served at, for the calls made while serving it: its route's
	 * (core for a path of no route), lowered by its caller's.
	 */
	private int servedPriority(RequestView request, @Nullable ShedRoute route) {
		String header = this.priorityHeader;
		if (header == null) {
			return Decision.Proceed.NOT_PASSED;
		}
		return PassedPriority.lower((route != null) ? route.priority() : PassedPriority.CORE, request.header(header));
	}

	/**
	 * Return how long after its admission an admitted request's body may still be arriving: the
	 * body time-out ({@link #setBodyLimits}), and never past its caller's deadline. A body that
	 * trickles in slower than that would hold its place for a caller's slowness, so its reading
	 * fails then and the place is given back.
	 * @param proceed the decision that admitted the request
	 * @return the bound, in nanoseconds from its admission
	 */
	public long bodyTimeLimitNanos(Decision.Proceed proceed) {
		long deadline = proceed.deadlineNanos();
		long timeout = this.bodyTimeoutNanos;
		return (deadline == Deadline.NONE || deadline <= 0) ? timeout : Math.min(deadline, timeout);
	}

	/**
	 * Return how long an admitted request's answer may wait, in all, for its caller to take it
	 * before its place is given back: the body time-out ({@link #setBodyLimits}) alone. Unlike a
	 * body's bound, never the caller's deadline: a caller that sent a deadline of a millisecond
	 * and reads at once would otherwise have its place given back at its answer's first wait, and
	 * the rest of its work would run outside admission. The bound is the operator's, no caller's.
	 * @return the bound, in nanoseconds
	 */
	public long answerWaitLimitNanos() {
		return this.bodyTimeoutNanos;
	}

	private long deadline(RequestView request) {
		return Deadline.remainingNanos(request.header(this.deadlineHeader), this.maxDeadline);
	}

	/** The caller's deadline less the time it already waited: passed when that is all of it. */
	private long deadline(RequestView request, long waitedNanos) {
		long deadline = deadline(request);
		if (deadline <= 0 || waitedNanos <= 0) {
			return deadline;
		}
		return Math.max(Deadline.PASSED, deadline - waitedNanos);
	}

	private @Nullable ShedRoute route(RequestView request, @Nullable RouteTable table) {
		if (table == null) {
			return null;
		}
		RouteIndex routes = table.index(request.method());
		if (routes == null) {
			// No route has this method: spare the request the parsing of its path.
			return null;
		}
		PathContainer path = request.pathWithinApplication();
		ShedRoute route = routes.find(path);
		if (route == null) {
			return null;
		}
		return reserved(request, path) ? null : route;
	}

	/** Whether a request's path is the Actuator's: never shed nor refused. */
	private boolean reserved(RequestView request, PathContainer path) {
		if (this.reserved != null && this.reserved.matches(path)) {
			int applicationPort = this.applicationPortBesideActuator.getAsInt();
			if (applicationPort < 0 || request.localPort() != applicationPort) {
				return true;
			}
		}
		PathPattern[] elsewhere = this.reservedElsewherePatterns;
		if (elsewhere == null) {
			elsewhere = this.reservedElsewhere.get()
				.stream()
				// The root itself would reserve every path.
				.filter((reserved) -> !reserved.isEmpty() && !reserved.equals("/"))
				.map((reserved) -> PathPatternParser.defaultInstance
					.parse((reserved.endsWith("/") ? reserved : reserved + "/") + "**"))
				.toArray(PathPattern[]::new);
			this.reservedElsewherePatterns = elsewhere;
		}
		for (PathPattern pattern : elsewhere) {
			if (pattern.matches(path)) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable ShedRoute find(@Nullable RouteTable table, String method, PathContainer path) {
		RouteIndex routes = (table != null) ? table.index(method) : null;
		return (routes != null) ? routes.find(path) : null;
	}

	/**
	 * The current route table and the one before it.
	 */
	private record Tables(RouteTable current, RouteTable previous) {

		@Nullable RouteTable of(DegradationManifest manifest) {
			if (this.current.manifest() == manifest) {
				return this.current;
			}
			return (this.previous.manifest() == manifest) ? this.previous : null;
		}

	}

}
