package android.view;

/** Test stand-in for the platform's InputEvent. */
public abstract class InputEvent {
    public abstract void setSource(int source);
}
