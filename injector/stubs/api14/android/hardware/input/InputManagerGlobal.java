package android.hardware.input;

import android.view.InputEvent;

/** Test stand-in for Android 14+: injection lives in InputManagerGlobal. */
public final class InputManagerGlobal {
    private static final InputManagerGlobal INSTANCE = new InputManagerGlobal();

    public static InputManagerGlobal getInstance() {
        Recorder.log("getInstance InputManagerGlobal");
        return INSTANCE;
    }

    public boolean injectInputEvent(InputEvent event, int mode) {
        return Recorder.inject("InputManagerGlobal", event, mode);
    }
}
