package dev.degradation.actuate;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.degradation.engine.SwitchState;
import dev.degradation.monitor.DependencyState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How the endpoint's writes read their values, without an endpoint around them.
 */
class WriteValuesTests {

	private final WriteValues values = new WriteValues(Duration.ofDays(1));

	@Test
	void aTtlIsReadInBootsSimpleFormOrIsoWithItsUnit() {
		assertThat(this.values.ttl(null)).isNull();
		assertThat(this.values.ttl("90s")).isEqualTo(Duration.ofSeconds(90));
		assertThat(this.values.ttl(" 15M ")).isEqualTo(Duration.ofMinutes(15));
		assertThat(this.values.ttl("PT2H")).isEqualTo(Duration.ofHours(2));
	}

	@Test
	void aTtlWithoutItsUnitIsRefusedWithWhatIsAccepted() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> this.values.ttl("900"))
			.withMessage("'ttl' must be a duration with its unit, such as '90s', '15m', '2h' or 'PT15M', but was '900'");
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> this.values.ttl("Pxyz"))
			.withMessageContaining("but was 'Pxyz'");
	}

	@Test
	void aTtlOutsideItsRangeIsRefusedWithTheRangeAndTheProperty() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> this.values.ttl("500ms"))
			.withMessage("'ttl' must be at least 1s and at most 1d ('degradation.overrides.max-ttl'), but was '500ms'");
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> this.values.ttl("25h"))
			.withMessageContaining("at most 1d");
	}

	@Test
	void aDurationIsWrittenInTheLargestWholeUnit() {
		assertThat(WriteValues.readable(Duration.ofDays(1))).isEqualTo("1d");
		assertThat(WriteValues.readable(Duration.ofMinutes(90))).isEqualTo("90m");
		assertThat(WriteValues.readable(Duration.ofMillis(1500))).isEqualTo("1500ms");
	}

	@Test
	void statesAreTakenOnlyAsDocumented() {
		assertThat(WriteValues.switchState("off")).isEqualTo(SwitchState.OFF);
		assertThat(WriteValues.forcedState("down")).isEqualTo(DependencyState.FAILED);
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> WriteValues.switchState("OFF"))
			.withMessage("'state' must be 'off' or 'on', but was 'OFF'");
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> WriteValues.forcedState(null))
			.withMessage("'state' must be 'down' or 'up', but was missing");
	}

}
