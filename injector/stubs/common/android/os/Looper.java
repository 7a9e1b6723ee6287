package android.os;

import android.hardware.input.Recorder;

/** Test stand-in: records that the injector prepared a main looper. */
public final class Looper {
    public static void prepareMainLooper() {
        Recorder.log("prepareMainLooper");
    }
}
