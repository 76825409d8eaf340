package dev.degradation.engine;

/**
 * Whether an operator's switch lets a tier or a named route serve ({@code on}) or sheds it
 * whatever the level ({@code off}).
 */
public enum SwitchState {

	/** Served as usual: the other signals decide. */
	ON,

	/** Shed, whatever the level and the dependencies say. */
	OFF

}
