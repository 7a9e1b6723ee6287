package android.os;

import android.hardware.input.Recorder;

/** Test stand-in: a clock that only moves when the injector sleeps, so event times are exact. */
public final class SystemClock {
    private static long now = 1000;

    public static long uptimeMillis() {
        return now;
    }

    public static void sleep(long ms) {
        Recorder.log("sleep " + ms);
        now += ms;
    }
}
