"""Network play (issue 50): the messages (``protocol``), the server's game (``host``) and its
asyncio server (``server``), and a seat's session (``remote``). No pygame here."""
