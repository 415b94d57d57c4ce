"""The Kivy touchscreen app of Windrose (screens, widgets, theme, translations)."""
