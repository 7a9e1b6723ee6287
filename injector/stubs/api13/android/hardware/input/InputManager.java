package android.hardware.input;

import android.view.InputEvent;

/** Test stand-in for Android 5-13: the singleton with injectInputEvent, no InputManagerGlobal. */
public final class InputManager {
    private static final InputManager INSTANCE = new InputManager();

    public static InputManager getInstance() {
        Recorder.log("getInstance InputManager");
        return INSTANCE;
    }

    public boolean injectInputEvent(InputEvent event, int mode) {
        return Recorder.inject("InputManager", event, mode);
    }
}
