package dev.degradation.stacks;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import dev.degradation.testapp.BlockingCalls;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveAdmissionTests} with BlockHound watching every Reactor and Netty thread: no
 * blocking call is made from the starter's code on them while requests are decided, shed,
 * refused, made to wait for a place and admitted. Runs in a JVM of its own (the {@code blockhound}
 * execution), since BlockHound instruments the JVM for good.
 */
class ReactiveAdmissionUnderBlockHoundTests extends ReactiveAdmissionTests {

	@BeforeAll
	static void installBlockHound() {
		BlockingCalls.install();
		BlockingCalls.clear();
	}

	@AfterEach
	void noBlockingCallOfTheStarter() {
		// Only calls made by the starter's code: the server's own start-up reads files on its
		// threads, which is no decision's doing.
		assertThat(BlockingCalls.seen()).filteredOn((trace) -> trace.contains("at dev.degradation.")
				&& !trace.contains("at dev.degradation.stacks.")).isEmpty();
	}

}
