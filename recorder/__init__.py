"""The recorder: a match recorded tap by tap at the table, on a phone, checked by the engine
running in the phone itself (Pyodide), kept offline and sent when the connection is back."""
