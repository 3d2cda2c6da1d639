// Placeholder so the component links before the store lands.
