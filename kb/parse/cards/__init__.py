"""Card data: MTGJSON set files into cards and Gatherer rulings."""
